// `@clickwire/protocol/insert`: writing Native blocks and what an insert cut short
// left on the server. Off the main entry so that callers can load it with `import()` on
// the first insert, keeping it out of a browser page that only queries.
export { externalTableColumns } from './blocks/external-table-columns.js'
export { type ColumnToWrite, NativeBlockWriter, writeBlockInfo } from './blocks/native-block-writer.js'
export {
  defaultSquashing,
  type InsertProgressAtBreak,
  insertOutcomeAt,
  keepsRowsWhenStopped,
  squashSetting,
  withInsertOutcome,
  withOutcome,
} from './errors/insert-outcome.js'
