export {
  type Addendum,
  type ClientHelloPacket,
  checkChunkedFraming,
  clientHelloCodec,
  decodeAddendum,
  encodeAddendum,
} from './client-hello-packet.js'
export {
  type ClientIdentity,
  type ClientInfo,
  ClientInterface,
  initialClientInfo,
  QueryKind,
  readClientInfo,
  type TraceContext,
  writeClientInfo,
} from './client-info.js'
export {
  type ClientPacket,
  type ClientPacketInput,
  type ClientPacketType,
  decodeClientPacket,
  encodeClientPacket,
} from './client-packet.js'
export { type ColumnDescription, parseColumnsDescription } from './columns-description.js'
export { type ExceptionPacket, exceptionCodec } from './exception-packet.js'
export { type LegacySettingKind, legacySettingKind } from './legacy-setting-kinds.js'
export { maxPacketListLength, type PacketCodec, type PacketInput } from './packet-codec.js'
export {
  ClientPacketId,
  type ClientPacketName,
  clientPacketLabel,
  QueryStage,
  ServerPacketId,
  type ServerPacketName,
  serverPacketLabel,
} from './packet-ids.js'
export {
  type IgnoredPartUUIDsPacket,
  ignoredPartUuidsCodec,
  type PartUUIDsPacket,
  partUuidsCodec,
} from './part-uuids-packets.js'
export { type ProfileInfoPacket, profileInfoCodec } from './profile-info-packet.js'
export { type ProgressPacket, progressCodec } from './progress-packet.js'
export { type QueryPacket, type QueryPacketInput, queryCodec } from './query-packet.js'
export {
  type QueryParameter,
  type QuerySetting,
  readParameters,
  readSettings,
  settingText,
  writeParameters,
  writeSettings,
} from './query-settings.js'
export { quoteLiteral, unescapeText, unquoteLiteral } from './quoted-literal.js'
export { type ReadTaskResponsePacket, readTaskResponseCodec } from './read-task-packets.js'
export {
  negotiatedRevision,
  type PasswordComplexityRule,
  type ServerHelloPacket,
  serverHelloCodec,
} from './server-hello-packet.js'
export {
  decodeServerPacket,
  encodeServerPacket,
  type ServerBlockHeader,
  type ServerPacket,
  type ServerPacketType,
} from './server-packet.js'
export {
  cancelCodec,
  clientDataCodec,
  endOfStreamCodec,
  extremesCodec,
  logCodec,
  pingCodec,
  pongCodec,
  profileEventsCodec,
  readTaskRequestCodec,
  type ServerBlockPacketType,
  scalarCodec,
  serverBlockCompression,
  serverBodyCompressed,
  serverDataCodec,
  sshChallengeCodec,
  sshChallengeRequestCodec,
  sshChallengeResponseCodec,
  timezoneUpdateCodec,
  totalsCodec,
} from './simple-packets.js'
export { type TableColumnsPacket, tableColumnsCodec } from './table-columns-packet.js'
export {
  type QualifiedTableName,
  type TableStatus,
  type TablesStatusRequestPacket,
  type TablesStatusResponsePacket,
  tablesStatusRequestCodec,
  tablesStatusResponseCodec,
} from './tables-status-packets.js'
