// apache-arrow is an optional peer dependency: without it, only the Arrow calls fail, with a
// UsageError that says how to install it, and a later call tries again once it is there.
import { UsageError } from '@clickwire/protocol'
import { afterEach, describe, expect, it, vi } from 'vitest'

afterEach(() => {
  vi.doUnmock('./arrow-table.js')
  vi.resetModules()
})

describe('loadArrow', () => {
  it('names the missing optional peer, then loads once it is installed', async () => {
    vi.doMock('./arrow-table.js', () => {
      throw new Error("Cannot find package 'apache-arrow' imported from arrow-table.js")
    })
    const { loadArrow } = await import('./arrow-loader.js')
    const error = await loadArrow().catch((caught: unknown) => caught)
    expect(UsageError.isInstance(error), String(error)).toBe(true)
    expect((error as Error).message).toMatch(
      /^Arrow results need apache-arrow, an optional peer dependency of @clickwire\/client: install it \(npm install apache-arrow\), or in a bundled page serve the chunk that holds it \(.+\)$/,
    )
    expect((error as Error).cause).toBeInstanceOf(Error)
    vi.doUnmock('./arrow-table.js')
    const loaded = await loadArrow()
    expect(typeof loaded.ArrowConverter).toBe('function')
  })
})
