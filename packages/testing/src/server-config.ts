import type { ServerGeneration } from './server-generation.js'

/**
 * The ZooKeeper session of a replicated node: how long its "active" mark outlives a kill.
 * 10 s, the most a 500 ms tick allows: on a busy machine a shorter session expired under a
 * running node, and 18.16's DDL worker crashes when it opens the next one.
 */
export const zooKeeperSessionTimeoutMs = 10_000

/** The accounts every throwaway server has. */
export interface ServerUsers {
  /** `default`, no password, full access. */
  readonly default: { readonly user: string; readonly password: string }
  /** A user that must authenticate; its password is distinctive so leak tests can grep for it. */
  readonly password: { readonly user: string; readonly password: string }
  /** A user in a `readonly = 1` profile: reads work, writes and setting changes are refused. */
  readonly readonly: { readonly user: string; readonly password: string }
}

/** The default accounts. The password is not a secret: it only guards throwaway servers. */
export const defaultUsers: ServerUsers = {
  default: { user: 'default', password: '' },
  password: { user: 'clickwire_password', password: 'Cw-pa55w0rd-7f3a9c-DISTINCTIVE' },
  readonly: { user: 'clickwire_readonly', password: 'ro-pa55' },
}

export interface ServerPorts {
  tcp: number
  http: number
  interserverHttp: number
  tcpSecure?: number | undefined
  https?: number | undefined
}

export interface ServerLayout {
  /** Root of the server's private folder; everything the server writes goes below it. */
  dir: string
  ports: ServerPorts
  users: ServerUsers
  /** PEM files for the TLS ports, when they are enabled. */
  tls?: { certificateFile: string; privateKeyFile: string; dhParamsFile: string } | undefined
  /** Server time zone; UTC keeps expectations stable across machines. */
  timezone?: string | undefined
  /** Settings for the default profile (ClickHouse names, passed through unchanged). */
  profileSettings?: Readonly<Record<string, string | number | boolean>> | undefined
  /**
   * `remote_servers` clusters on loopback: name -> one entry per shard, the TCP port of its
   * only replica or the TCP ports of its replicas.
   */
  clusters?: Readonly<Record<string, readonly (number | readonly number[])[]>> | undefined
  /** `{shard}` and `{replica}` substitutions of this node (replicated clusters). */
  macros?: { readonly shard: number; readonly replica: string } | undefined
  /** The ZooKeeper a replicated cluster coordinates through; also enables ON CLUSTER DDL. */
  zooKeeper?: { readonly host: string; readonly port: number } | undefined
  logLevel?: 'error' | 'warning' | 'information' | 'debug' | 'trace' | undefined
  /** The server generation; the settings the harness enables differ (default legacy). */
  generation?: ServerGeneration | undefined
  /**
   * The query id of an embedded engine's keeper query, as clickhouse-local's `query_id`
   * option in the config (26.9's entry point takes no command-line options).
   */
  queryId?: string | undefined
}

/** Escapes text for an XML element body. */
export function xmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function settingsXml(settings: Readonly<Record<string, string | number | boolean>>, indent: string): string {
  return Object.entries(settings)
    .map(([name, value]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
        throw new Error(`invalid setting name ${JSON.stringify(name)}`)
      const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value)
      return `${indent}<${name}>${xmlText(text)}</${name}>`
    })
    .join('\n')
}

/**
 * Settings the harness enables so that tests can use every type the server knows, per
 * generation: 18.16 needs LowCardinality switched on; 26.7 has every type on by default and
 * refuses the old setting's name.
 */
export const harnessProfileSettings: Readonly<
  Record<ServerGeneration, Readonly<Record<string, string | number | boolean>>>
> = {
  legacy: { allow_experimental_low_cardinality_type: 1 },
  modern: {},
}

/**
 * The main server config. The layout works on 18.16 (`<yandex>` root) and on modern
 * servers, which accept the old root element too.
 */
export function serverConfigXml(layout: ServerLayout): string {
  const { dir, ports } = layout
  const lines = [
    '<?xml version="1.0"?>',
    '<yandex>',
    '  <logger>',
    `    <level>${layout.logLevel ?? 'warning'}</level>`,
    `    <log>${xmlText(dir)}/log/server.log</log>`,
    `    <errorlog>${xmlText(dir)}/log/server.err.log</errorlog>`,
    '    <size>100M</size>',
    '    <count>1</count>',
    '  </logger>',
    '  <listen_host>127.0.0.1</listen_host>',
    `  <tcp_port>${ports.tcp}</tcp_port>`,
    `  <http_port>${ports.http}</http_port>`,
    `  <interserver_http_port>${ports.interserverHttp}</interserver_http_port>`,
    '  <interserver_http_host>127.0.0.1</interserver_http_host>',
  ]
  if (layout.queryId !== undefined) lines.push(`  <query_id>${xmlText(layout.queryId)}</query_id>`)
  if (ports.tcpSecure !== undefined) lines.push(`  <tcp_port_secure>${ports.tcpSecure}</tcp_port_secure>`)
  if (ports.https !== undefined) lines.push(`  <https_port>${ports.https}</https_port>`)
  if (layout.tls) {
    lines.push(
      '  <openSSL>',
      '    <server>',
      `      <certificateFile>${xmlText(layout.tls.certificateFile)}</certificateFile>`,
      `      <privateKeyFile>${xmlText(layout.tls.privateKeyFile)}</privateKeyFile>`,
      `      <dhParamsFile>${xmlText(layout.tls.dhParamsFile)}</dhParamsFile>`,
      '      <verificationMode>none</verificationMode>',
      '      <loadDefaultCAFile>false</loadDefaultCAFile>',
      '      <cacheSessions>true</cacheSessions>',
      '      <disableProtocols>sslv2,sslv3</disableProtocols>',
      '      <preferServerCiphers>true</preferServerCiphers>',
      '    </server>',
      '  </openSSL>',
    )
  }
  lines.push(
    `  <path>${xmlText(dir)}/data/</path>`,
    `  <tmp_path>${xmlText(dir)}/tmp/</tmp_path>`,
    `  <user_files_path>${xmlText(dir)}/user_files/</user_files_path>`,
    `  <format_schema_path>${xmlText(dir)}/format_schemas/</format_schema_path>`,
    '  <users_config>users.xml</users_config>',
    '  <default_profile>default</default_profile>',
    '  <default_database>default</default_database>',
    '  <max_connections>4096</max_connections>',
    '  <keep_alive_timeout>3</keep_alive_timeout>',
    '  <max_concurrent_queries>200</max_concurrent_queries>',
    '  <uncompressed_cache_size>67108864</uncompressed_cache_size>',
    '  <mark_cache_size>67108864</mark_cache_size>',
    '  <mlock_executable>false</mlock_executable>',
    `  <timezone>${xmlText(layout.timezone ?? 'UTC')}</timezone>`,
    // What the client's observability tests read back (client_name, http_user_agent, the
    // spans of a propagated trace context). 18.16 has no span log and ignores that element.
    '  <query_log><database>system</database><table>query_log</table><flush_interval_milliseconds>500</flush_interval_milliseconds></query_log>',
    '  <opentelemetry_span_log><database>system</database><table>opentelemetry_span_log</table><flush_interval_milliseconds>500</flush_interval_milliseconds></opentelemetry_span_log>',
  )
  const clusters = Object.entries(layout.clusters ?? {})
  if (clusters.length > 0) {
    lines.push('  <remote_servers>')
    for (const [name, shards] of clusters) {
      lines.push(`    <${name}>`)
      for (const shard of shards) {
        const replicas = typeof shard === 'number' ? [shard] : shard
        lines.push('      <shard>')
        // Replicated tables copy rows among replicas themselves: a Distributed insert
        // writes each row to one replica of its shard.
        if (replicas.length > 1) lines.push('        <internal_replication>true</internal_replication>')
        for (const port of replicas) {
          lines.push(
            '        <replica>',
            '          <host>127.0.0.1</host>',
            `          <port>${port}</port>`,
            '        </replica>',
          )
        }
        lines.push('      </shard>')
      }
      lines.push(`    </${name}>`)
    }
    lines.push('  </remote_servers>')
  }
  if (layout.macros) {
    lines.push(
      '  <macros>',
      `    <shard>${layout.macros.shard}</shard>`,
      `    <replica>${xmlText(layout.macros.replica)}</replica>`,
      '  </macros>',
    )
  }
  if (layout.zooKeeper) {
    lines.push(
      '  <zookeeper>',
      '    <node>',
      `      <host>${xmlText(layout.zooKeeper.host)}</host>`,
      `      <port>${layout.zooKeeper.port}</port>`,
      '    </node>',
      `    <session_timeout_ms>${zooKeeperSessionTimeoutMs}</session_timeout_ms>`,
      '    <operation_timeout_ms>30000</operation_timeout_ms>',
      '  </zookeeper>',
      '  <distributed_ddl><path>/clickhouse/task_queue/ddl</path></distributed_ddl>',
    )
  }
  lines.push('</yandex>', '')
  return lines.join('\n')
}

/** The users file: the three accounts of {@link ServerUsers} and an unlimited quota. */
export function usersConfigXml(layout: ServerLayout): string {
  const settings = { ...harnessProfileSettings[layout.generation ?? 'legacy'], ...layout.profileSettings }
  const user = (account: { user: string; password: string }, profile: string) =>
    [
      `    <${account.user}>`,
      `      <password>${xmlText(account.password)}</password>`,
      '      <networks><ip>::/0</ip></networks>',
      `      <profile>${profile}</profile>`,
      '      <quota>default</quota>',
      `    </${account.user}>`,
    ].join('\n')
  return [
    '<?xml version="1.0"?>',
    '<yandex>',
    '  <profiles>',
    '    <default>',
    settingsXml(settings, '      '),
    '    </default>',
    '    <readonly>',
    '      <readonly>1</readonly>',
    '    </readonly>',
    '  </profiles>',
    '  <users>',
    user(layout.users.default, 'default'),
    user(layout.users.password, 'default'),
    user(layout.users.readonly, 'readonly'),
    '  </users>',
    '  <quotas>',
    '    <default>',
    '      <interval>',
    '        <duration>3600</duration>',
    '        <queries>0</queries>',
    '        <errors>0</errors>',
    '        <result_rows>0</result_rows>',
    '        <read_rows>0</read_rows>',
    '        <execution_time>0</execution_time>',
    '      </interval>',
    '    </default>',
    '  </quotas>',
    '</yandex>',
    '',
  ].join('\n')
}
