import { describe, expect, it } from 'vitest'
import { ClientLog, type LogContext, type Logger } from './client-logger.js'

function capturing(): Logger & { entries: [string, string, LogContext][] } {
  const entries: [string, string, LogContext][] = []
  const keep = (level: string) => (message: string, context: LogContext) =>
    entries.push([level, message, context])
  return { entries, debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') }
}

describe('ClientLog', () => {
  it('masks the password, as typed and percent-encoded, in messages and context values', () => {
    const logger = capturing()
    const password = 'p@ss w:rd/ü'
    const log = new ClientLog(logger, 'debug', password)
    log.error(`failed with ${password}`, {
      error: `http://u:${encodeURIComponent(password)}@h:8123/ said ${password}`,
      code: 516,
      absent: undefined,
    })
    expect(logger.entries).toEqual([
      ['error', 'failed with ***', { error: 'http://u:***@h:8123/ said ***', code: 516 }],
    ])
  })

  it('drops entries below the level; without a logger nothing is enabled', () => {
    const logger = capturing()
    const log = new ClientLog(logger, 'warn', '')
    log.debug('d')
    log.info('i')
    log.warn('w')
    log.error('e')
    expect(logger.entries.map(([level]) => level)).toEqual(['warn', 'error'])
    expect(new ClientLog(undefined, 'debug', '').enabled('error')).toBe(false)
    expect(new ClientLog(logger, undefined, '').enabled('debug')).toBe(false)
    expect(new ClientLog(logger, undefined, '').enabled('info')).toBe(true)
  })

  it('refuses a level it does not know and survives a logger that throws', () => {
    expect(() => new ClientLog(capturing(), 'verbose' as never, '')).toThrow(/logLevel must be one of/)
    const throwing: Logger = {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: () => {
        throw new Error('disk full')
      },
    }
    expect(() => new ClientLog(throwing, 'error', '').error('x')).not.toThrow()
  })
})
