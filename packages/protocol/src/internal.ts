/**
 * `@clickwire/protocol/internal`: the packet codecs of ClickHouse's native TCP protocol
 * (Hello, Query, Data, Exception, Progress, ...), for transports such as `@clickwire/native`
 * and for tests that play a server. Not a stable API: packets follow the protocol revision,
 * and these exports may change in any release. Users want the main entry point.
 *
 * @packageDocumentation
 */
export {
  type Addendum,
  type ClientHelloPacket,
  checkChunkedFraming,
  clientHelloCodec,
  decodeAddendum,
  encodeAddendum,
} from './packets/client-hello-packet.js'
export {
  type ClientIdentity,
  type ClientInfo,
  ClientInterface,
  initialClientInfo,
  QueryKind,
  readClientInfo,
  type TraceContext,
  writeClientInfo,
} from './packets/client-info.js'
export {
  type ClientPacket,
  type ClientPacketInput,
  type ClientPacketType,
  decodeClientPacket,
  encodeClientPacket,
} from './packets/client-packet.js'
export { type ColumnDescription, parseColumnsDescription } from './packets/columns-description.js'
export { type ExceptionPacket, exceptionCodec } from './packets/exception-packet.js'
export { type LegacySettingKind, legacySettingKind } from './packets/legacy-setting-kinds.js'
export { maxPacketListLength, type PacketCodec, type PacketInput } from './packets/packet-codec.js'
export {
  ClientPacketId,
  type ClientPacketName,
  clientPacketLabel,
  QueryStage,
  ServerPacketId,
  type ServerPacketName,
  serverPacketLabel,
} from './packets/packet-ids.js'
export {
  type IgnoredPartUUIDsPacket,
  ignoredPartUuidsCodec,
  type PartUUIDsPacket,
  partUuidsCodec,
} from './packets/part-uuids-packets.js'
export { type ProfileInfoPacket, profileInfoCodec } from './packets/profile-info-packet.js'
export { type ProgressPacket, progressCodec } from './packets/progress-packet.js'
export { type QueryPacket, type QueryPacketInput, queryCodec } from './packets/query-packet.js'
export {
  type QueryParameter,
  type QuerySetting,
  readParameters,
  readSettings,
  settingText,
  writeParameters,
  writeSettings,
} from './packets/query-settings.js'
export { quoteLiteral, unescapeText, unquoteLiteral } from './packets/quoted-literal.js'
export { type ReadTaskResponsePacket, readTaskResponseCodec } from './packets/read-task-packets.js'
export {
  negotiatedRevision,
  type PasswordComplexityRule,
  type ServerHelloPacket,
  serverHelloCodec,
} from './packets/server-hello-packet.js'
export {
  decodeServerPacket,
  encodeServerPacket,
  type ServerBlockHeader,
  type ServerPacket,
  type ServerPacketType,
} from './packets/server-packet.js'
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
} from './packets/simple-packets.js'
export { type TableColumnsPacket, tableColumnsCodec } from './packets/table-columns-packet.js'
export {
  type QualifiedTableName,
  type TableStatus,
  type TablesStatusRequestPacket,
  type TablesStatusResponsePacket,
  tablesStatusRequestCodec,
  tablesStatusResponseCodec,
} from './packets/tables-status-packets.js'
