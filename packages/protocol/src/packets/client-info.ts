import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { maxPacketListLength } from './packet-codec.js'
import { Revision } from './protocol-revision.js'

/*
 * ClientInfo, the block of facts about the query's origin that the Query packet carries
 * from revision 54032 (src/Interpreters/ClientInfo.cpp, write/read). The layout depends on
 * the negotiated revision and on the interface: TCP and HTTP carry different fields in the
 * middle. A query kind of 0 ("no query") ends it right after that byte.
 */

/** ClientInfo::QueryKind. */
export const QueryKind = { None: 0, Initial: 1, Secondary: 2 } as const

/** ClientInfo::Interface; only TCP and HTTP carry interface-specific fields. */
export const ClientInterface = {
  TCP: 1,
  HTTP: 2,
  GRPC: 3,
  MySQL: 4,
  PostgreSQL: 5,
  Local: 6,
  TCPInterserver: 7,
  Prometheus: 8,
  Background: 9,
} as const

/**
 * The W3C trace context a query continues (revision >= 54442). The ids are hex text as in a
 * `traceparent` header; on the wire the trace id is two UInt64 (high then low half, each
 * little-endian, the ClickHouse UUID layout) and the span id one UInt64.
 */
export interface TraceContext {
  /** 32 hex digits. */
  readonly traceId: string
  /** 16 hex digits. */
  readonly spanId: string
  readonly traceState: string
  readonly traceFlags: number
}

export interface ClientInfo {
  readonly queryKind: number
  /** For an initial query the server fills these three in itself; clickhouse-client sends '', '' and `0.0.0.0:0`. */
  readonly initialUser: string
  readonly initialQueryId: string
  /** `ip:port` (`[ipv6]:port`); modern servers reject anything but an IP literal with a numeric port. */
  readonly initialAddress: string
  /** Revision >= 54449: microseconds since the epoch (0 lets the server use its own clock). */
  readonly initialQueryStartTime: bigint
  readonly interface: number
  /** TCP only. */
  readonly osUser: string
  /** TCP only. */
  readonly clientHostname: string
  /** TCP only. */
  readonly clientName: string
  /** TCP only. */
  readonly clientVersionMajor: number
  /** TCP only. */
  readonly clientVersionMinor: number
  /** TCP only: the client's protocol revision (`client_tcp_protocol_version`). */
  readonly clientRevision: number
  /** TCP only, revision >= 54401. */
  readonly clientVersionPatch: number
  /** HTTP only: ClientInfo::HTTPMethod (1 GET, 2 POST). */
  readonly httpMethod: number
  /** HTTP only. */
  readonly httpUserAgent: string
  /** HTTP only, revision >= 54443. */
  readonly forwardedFor: string
  /** HTTP only, revision >= 54447. */
  readonly httpReferer: string
  /** Revision >= 54060. */
  readonly quotaKey: string
  /** Revision >= 54448. */
  readonly distributedDepth: number
  /** Revision >= 54442; undefined when the query continues no trace. */
  readonly traceContext: TraceContext | undefined
  /** Revision >= 54453 (parallel replicas); false/0/0 for a client. */
  readonly collaborateWithInitiator: boolean
  readonly countParticipatingReplicas: number
  readonly numberOfCurrentReplica: number
  /** Revision >= 54475: the query's number within a multi-query script (0 for a single query). */
  readonly scriptQueryNumber: number
  /** Revision >= 54475: the line the query starts on within that script (0 for a single query). */
  readonly scriptLineNumber: number
  /** Revision >= 54476: a JSON Web Token an initiator forwards to other servers; empty for a client. */
  readonly jwt: string
  /** Revision >= 54485: the AI coding agent that runs the client (`claude-code`, ...), empty when none. */
  readonly clientAgent: string
  /** Revision >= 54486: a query the server runs for itself; false for a client. */
  readonly isInternal: boolean
  /** Revision >= 54488: the initiator's current roles, forwarded between servers; undefined for a client. */
  readonly currentRoles: readonly string[] | undefined
}

/** What identifies the client in the ClientInfo of its own queries. */
export interface ClientIdentity {
  readonly clientName: string
  readonly versionMajor: number
  readonly versionMinor: number
  readonly versionPatch: number
  readonly revision: number
  readonly osUser?: string
  readonly hostname?: string
  readonly quotaKey?: string
  readonly traceContext?: TraceContext | undefined
}

/** Every field empty: the ClientInfo of no query (and the base of the client's own). */
const noQuery: Omit<ClientInfo, 'queryKind'> = Object.freeze({
  initialUser: '',
  initialQueryId: '',
  initialAddress: '',
  initialQueryStartTime: 0n,
  interface: 0,
  osUser: '',
  clientHostname: '',
  clientName: '',
  clientVersionMajor: 0,
  clientVersionMinor: 0,
  clientRevision: 0,
  clientVersionPatch: 0,
  httpMethod: 0,
  httpUserAgent: '',
  forwardedFor: '',
  httpReferer: '',
  quotaKey: '',
  distributedDepth: 0,
  traceContext: undefined,
  collaborateWithInitiator: false,
  countParticipatingReplicas: 0,
  numberOfCurrentReplica: 0,
  scriptQueryNumber: 0,
  scriptLineNumber: 0,
  jwt: '',
  clientAgent: '',
  isInternal: false,
  currentRoles: undefined,
})

/**
 * The ClientInfo of a query the client starts itself, with the defaults clickhouse-client
 * uses (initial user and query id empty, initial address `0.0.0.0:0`: the server replaces
 * them for initial queries).
 */
export function initialClientInfo(identity: ClientIdentity): ClientInfo {
  return {
    ...noQuery,
    queryKind: QueryKind.Initial,
    initialAddress: '0.0.0.0:0',
    interface: ClientInterface.TCP,
    osUser: identity.osUser ?? '',
    clientHostname: identity.hostname ?? '',
    clientName: identity.clientName,
    clientVersionMajor: identity.versionMajor,
    clientVersionMinor: identity.versionMinor,
    clientRevision: identity.revision,
    clientVersionPatch: identity.versionPatch,
    quotaKey: identity.quotaKey ?? '',
    traceContext: identity.traceContext,
  }
}

const hex16 = /^[0-9a-fA-F]{16}$/
const hex32 = /^[0-9a-fA-F]{32}$/

function hexToUInt64(text: string): bigint {
  return BigInt(`0x${text}`)
}

function uint64ToHex(value: bigint): string {
  return value.toString(16).padStart(16, '0')
}

/** Writes ClientInfo as the negotiated `revision` (>= 54032) lays it out. */
export function writeClientInfo(writer: ByteWriter, info: ClientInfo, revision: number): void {
  writer.u8(info.queryKind)
  if (info.queryKind === QueryKind.None) return
  writer.string(info.initialUser)
  writer.string(info.initialQueryId)
  writer.string(info.initialAddress)
  if (revision >= Revision.withInitialQueryStartTime) writer.i64(info.initialQueryStartTime)
  writer.u8(info.interface)
  if (info.interface === ClientInterface.TCP) {
    writer.string(info.osUser)
    writer.string(info.clientHostname)
    writer.string(info.clientName)
    writer.varUInt(info.clientVersionMajor)
    writer.varUInt(info.clientVersionMinor)
    writer.varUInt(info.clientRevision)
  } else if (info.interface === ClientInterface.HTTP) {
    writer.u8(info.httpMethod)
    writer.string(info.httpUserAgent)
    if (revision >= Revision.withXForwardedForInClientInfo) writer.string(info.forwardedFor)
    if (revision >= Revision.withRefererInClientInfo) writer.string(info.httpReferer)
  }
  if (revision >= Revision.withQuotaKeyInClientInfo) writer.string(info.quotaKey)
  if (revision >= Revision.withDistributedDepth) writer.varUInt(info.distributedDepth)
  if (info.interface === ClientInterface.TCP && revision >= Revision.withVersionPatch) {
    writer.varUInt(info.clientVersionPatch)
  }
  if (revision >= Revision.withOpenTelemetry) {
    const trace = info.traceContext
    if (trace) {
      if (!hex32.test(trace.traceId) || !hex16.test(trace.spanId)) {
        throw new UsageError('a trace context needs a 32-hex-digit trace id and a 16-hex-digit span id')
      }
      writer.u8(1)
      writer.u64(hexToUInt64(trace.traceId.slice(0, 16)))
      writer.u64(hexToUInt64(trace.traceId.slice(16)))
      writer.u64(hexToUInt64(trace.spanId))
      writer.string(trace.traceState)
      writer.u8(trace.traceFlags)
    } else {
      writer.u8(0)
    }
  }
  if (revision >= Revision.withParallelReplicas) {
    writer.varUInt(info.collaborateWithInitiator ? 1 : 0)
    writer.varUInt(info.countParticipatingReplicas)
    writer.varUInt(info.numberOfCurrentReplica)
  }
  if (revision >= Revision.withQueryAndLineNumbers) {
    writer.varUInt(info.scriptQueryNumber)
    writer.varUInt(info.scriptLineNumber)
  }
  if (revision >= Revision.withJwtInInterserver) {
    // A presence byte, then the token only when there is one.
    writer.u8(info.jwt === '' ? 0 : 1)
    if (info.jwt !== '') writer.string(info.jwt)
  }
  if (revision >= Revision.withClientAgentInClientInfo) writer.string(info.clientAgent)
  if (revision >= Revision.withInternalQueryFlag) writer.u8(info.isInternal ? 1 : 0)
  if (revision >= Revision.withInterserverCurrentRoles) {
    const roles = info.currentRoles
    writer.u8(roles === undefined ? 0 : 1)
    if (roles !== undefined) {
      writer.varUInt(roles.length)
      for (const role of roles) writer.string(role)
    }
  }
}

/** Reads ClientInfo; undefined when short. */
export function readClientInfo(reader: ByteReader, revision: number): ClientInfo | undefined {
  const queryKind = reader.u8()
  if (reader.short) return undefined
  if (queryKind > QueryKind.Secondary) {
    throw new ProtocolError(`unknown query kind ${queryKind}`, { path: 'Query > ClientInfo' })
  }
  if (queryKind === QueryKind.None) return { queryKind, ...noQuery }
  const initialUser = reader.string()
  const initialQueryId = reader.string()
  const initialAddress = reader.string()
  const initialQueryStartTime = revision >= Revision.withInitialQueryStartTime ? reader.i64() : 0n
  const clientInterface = reader.u8()
  let osUser = ''
  let clientHostname = ''
  let clientName = ''
  let clientVersionMajor = 0
  let clientVersionMinor = 0
  let clientRevision = 0
  let httpMethod = 0
  let httpUserAgent = ''
  let forwardedFor = ''
  let httpReferer = ''
  if (clientInterface === ClientInterface.TCP) {
    osUser = reader.string()
    clientHostname = reader.string()
    clientName = reader.string()
    clientVersionMajor = reader.varUInt()
    clientVersionMinor = reader.varUInt()
    clientRevision = reader.varUInt()
  } else if (clientInterface === ClientInterface.HTTP) {
    httpMethod = reader.u8()
    httpUserAgent = reader.string()
    if (revision >= Revision.withXForwardedForInClientInfo) forwardedFor = reader.string()
    if (revision >= Revision.withRefererInClientInfo) httpReferer = reader.string()
  }
  const quotaKey = revision >= Revision.withQuotaKeyInClientInfo ? reader.string() : ''
  const distributedDepth = revision >= Revision.withDistributedDepth ? reader.varUInt() : 0
  let clientVersionPatch = 0
  if (clientInterface === ClientInterface.TCP) {
    // Before 54401 the server takes the client's revision for the patch number.
    clientVersionPatch = revision >= Revision.withVersionPatch ? reader.varUInt() : clientRevision
  }
  let traceContext: TraceContext | undefined
  if (revision >= Revision.withOpenTelemetry && reader.u8() !== 0) {
    const high = reader.u64()
    const low = reader.u64()
    const span = reader.u64()
    const traceState = reader.string()
    const traceFlags = reader.u8()
    traceContext = {
      traceId: uint64ToHex(high) + uint64ToHex(low),
      spanId: uint64ToHex(span),
      traceState,
      traceFlags,
    }
  }
  let collaborateWithInitiator = false
  let countParticipatingReplicas = 0
  let numberOfCurrentReplica = 0
  if (revision >= Revision.withParallelReplicas) {
    collaborateWithInitiator = reader.varUInt() !== 0
    countParticipatingReplicas = reader.varUInt()
    numberOfCurrentReplica = reader.varUInt()
  }
  const scriptQueryNumber = revision >= Revision.withQueryAndLineNumbers ? reader.varUInt() : 0
  const scriptLineNumber = revision >= Revision.withQueryAndLineNumbers ? reader.varUInt() : 0
  let jwt = ''
  if (revision >= Revision.withJwtInInterserver && reader.u8() !== 0) jwt = reader.string()
  const clientAgent = revision >= Revision.withClientAgentInClientInfo ? reader.string() : ''
  const isInternal = revision >= Revision.withInternalQueryFlag ? reader.u8() !== 0 : false
  let currentRoles: string[] | undefined
  if (revision >= Revision.withInterserverCurrentRoles && reader.u8() !== 0) {
    const count = reader.varUInt()
    if (reader.short) return undefined
    if (count > maxPacketListLength) {
      throw new ProtocolError(`${count} current roles`, { path: 'Query > ClientInfo' })
    }
    currentRoles = []
    for (let i = 0; i < count && !reader.short; i++) currentRoles.push(reader.string())
  }
  if (reader.short) return undefined
  return {
    queryKind,
    initialUser,
    initialQueryId,
    initialAddress,
    initialQueryStartTime,
    interface: clientInterface,
    osUser,
    clientHostname,
    clientName,
    clientVersionMajor,
    clientVersionMinor,
    clientRevision,
    clientVersionPatch,
    httpMethod,
    httpUserAgent,
    forwardedFor,
    httpReferer,
    quotaKey,
    distributedDepth,
    traceContext,
    collaborateWithInitiator,
    countParticipatingReplicas,
    numberOfCurrentReplica,
    scriptQueryNumber,
    scriptLineNumber,
    jwt,
    clientAgent,
    isInternal,
    currentRoles,
  }
}
