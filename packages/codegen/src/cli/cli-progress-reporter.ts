import cliProgress from 'cli-progress'
import type { IntrospectionProgress } from '../codegen-options.js'

/** Where progress goes; `isTTY` picks a live bar over plain lines. */
export interface ProgressStream {
  write(text: string): unknown
  readonly isTTY?: boolean | undefined
}

/** Receives introspection progress; `stop()` ends any live display. */
export interface ProgressReporter {
  readonly onProgress: (event: IntrospectionProgress) => void
  stop(): void
}

/**
 * Progress per database and table: on a terminal a cli-progress bar per database
 * (`analytics [=====-----] 12/40 tables events_2024`), elsewhere (CI logs, pipes) one plain
 * line per database and per table, since a bar's carriage returns make logs unreadable.
 */
export function progressReporter(stream: ProgressStream): ProgressReporter {
  return stream.isTTY ? barReporter(stream) : lineReporter(stream)
}

function lineReporter(stream: ProgressStream): ProgressReporter {
  return {
    onProgress(event) {
      if (event.kind === 'database') {
        stream.write(
          `database ${event.database} (${event.index + 1}/${event.databaseCount}): ${event.tableCount} table${event.tableCount === 1 ? '' : 's'}\n`,
        )
      } else {
        stream.write(
          `  ${event.database}.${event.table} (${event.index + 1}/${event.tableCount}): ${event.columnCount} column${event.columnCount === 1 ? '' : 's'}\n`,
        )
      }
    },
    stop() {},
  }
}

function barReporter(stream: ProgressStream): ProgressReporter {
  let bar: cliProgress.SingleBar | undefined
  const stop = () => {
    bar?.stop()
    bar = undefined
  }
  return {
    onProgress(event) {
      if (event.kind === 'database') {
        stop()
        bar = new cliProgress.SingleBar(
          {
            format: '{database} [{bar}] {value}/{total} tables {table}',
            stream: stream as NodeJS.WritableStream,
            hideCursor: true,
            // Keep the finished bar as a record of what was read.
            clearOnComplete: false,
            noTTYOutput: false,
          },
          cliProgress.Presets.legacy,
        )
        bar.start(event.tableCount, 0, { database: event.database, table: '' })
      } else {
        bar?.update(event.index + 1, { table: event.table })
      }
    },
    stop,
  }
}
