import { CallDeadline, ClickHouseError, ConnectionError, decodeUtf8, newQueryId } from '@clickwire/protocol'
import { readExchange } from './http-exchange.js'
import type { RequestSender } from './request-lifetime.js'
import { featuresOf, type ProbedServer, type ServerFeatures } from './server-features.js'
import { SharedProbe } from './shared-probe.js'

/**
 * What the native Hello tells, asked in SQL: the protocol revision is in system.metrics
 * (`Revision`) on 18.16 and in system.build_options (`VERSION_REVISION`) on current
 * servers, where the metric may be 0 (checked on 18.16 and 26.7); the name is the start of
 * `VERSION_FULL`. The `readonly` level and whether the server has
 * `cancel_http_readonly_queries_on_client_close` (see close-cancel-settings.ts) come from
 * system.settings. Aggregates over no rows give 0 and '', never an error.
 */
const probeQuery =
  'SELECT version(), timezone(), ' +
  "(SELECT toUInt64(max(value)) FROM system.metrics WHERE metric = 'Revision'), " +
  "(SELECT toUInt64OrZero(any(value)) FROM system.build_options WHERE name = 'VERSION_REVISION'), " +
  "(SELECT any(value) FROM system.build_options WHERE name = 'VERSION_FULL'), " +
  "(SELECT any(value) FROM system.settings WHERE name = 'readonly'), " +
  "(SELECT count() FROM system.settings WHERE name = 'cancel_http_readonly_queries_on_client_close')"

/** Without the system tables (a user refused them, a fork without them): what functions tell. */
const plainQuery = 'SELECT version(), timezone()'

/** Codes that mean the system tables cannot be read by this user here: ACCESS_DENIED, UNKNOWN_TABLE, UNKNOWN_IDENTIFIER. */
const systemTablesRefused = new Set([497, 60, 47])

/**
 * The server's version, time zone, revision, name and display name, asked once per
 * transport and shared by every call that needs them (parameter mode, time zone,
 * serverInfo): each call waits within its own deadline, and the probe stops only when no
 * call waits for it any more (see SharedProbe).
 */
export class ServerProbe {
  readonly #probe: SharedProbe<ServerFeatures>

  constructor(
    private readonly sender: RequestSender,
    private readonly headerPrefix: string,
    /** The `protocolRevision` option: the highest revision clickwire speaks. */
    private readonly protocolRevision: number,
  ) {
    this.#probe = new SharedProbe((signal) => this.#detect(signal))
  }

  /** The server's facts, once known (no request). */
  get known(): ServerFeatures | undefined {
    return this.#probe.known
  }

  /** The server's facts, asked within `deadline` unless known. */
  get(deadline: CallDeadline): Promise<ServerFeatures> {
    return this.#probe.get(deadline)
  }

  async #detect(signal: AbortSignal): Promise<ServerFeatures> {
    try {
      return await this.#ask(probeQuery, signal)
    } catch (error) {
      if (!ClickHouseError.isInstance(error) || !systemTablesRefused.has(error.code)) throw error
      return this.#ask(plainQuery, signal)
    }
  }

  async #ask(sql: string, signal: AbortSignal): Promise<ServerFeatures> {
    const exchange = await this.sender.send(
      { queryId: newQueryId(), defaultFormat: 'TabSeparated', inSession: false },
      sql,
      {
        deadline: CallDeadline.background(this.sender.closing, signal),
        repeatable: () => ({ kind: 'statement', sql }),
        kill: false,
      },
    )
    const text = decodeUtf8(await readExchange(exchange, 64 * 1024, 'reading the answer to the server probe'))
    const [version, timezone, metricRevision, buildRevision, versionFull, readonly, cancels] = text
      .replace(/\n$/, '')
      .split('\t')
    if (!version || timezone === undefined) {
      throw new ConnectionError(`unexpected answer to ${plainQuery}: ${JSON.stringify(text.slice(0, 200))}`)
    }
    const probed: ProbedServer = {
      version,
      timezone,
      serverRevision: Math.max(Number(metricRevision) || 0, Number(buildRevision) || 0),
      versionFull: versionFull ?? '',
      readonly: readonly ?? '',
      cancelsOnClientClose: cancels === '1',
      displayName: exchange.response.headers.get(`${this.headerPrefix}Server-Display-Name`) ?? '',
    }
    return featuresOf(probed, this.protocolRevision)
  }
}
