// Server Hellos captured from the harness's modern servers: the 26.7 one (the embedded
// ClickHouse 26.7.2.1 answering a client that announced 54488) and the 26.9 one (26.9.2.1 from
// PyPI's chdb-core answering 54492). The packet tests decode these bytes; the live packet
// test expects the same fields from the server it runs on (all but the nonce, zone and name).
import type { ServerHelloPacket } from '../../src/packets/server-hello-packet.js'

export const captured267 =
  '000a436c69636b486f7573651a07d8a90308074574632f55544302766d020a6e6f746368756e6b65640a6e6f746368756e6b656400697ee27285e693cf1d616c6c6f775f696e74726f7370656374696f6e5f66756e6374696f6e730001311873746f726167655f66696c655f726561645f6d6574686f6400046d6d61700f696d706c696369745f73656c656374000131256f75747075745f666f726d61745f6172726f775f7573655f6e61746976655f777269746572000130000308'

export const hello267: ServerHelloPacket = {
  type: 'Hello',
  name: 'ClickHouse',
  versionMajor: 26,
  versionMinor: 7,
  revision: 54488,
  timezone: 'Etc/UTC',
  displayName: 'vm',
  versionPatch: 2,
  passwordComplexityRules: [],
  nonce: 0xcf93e68572e27e69n,
  chunkedSend: 'notchunked',
  chunkedReceive: 'notchunked',
  parallelReplicasProtocolVersion: 8,
  settings: [
    { name: 'allow_introspection_functions', value: '1', important: false, custom: false },
    { name: 'storage_file_read_method', value: 'mmap', important: false, custom: false },
    { name: 'implicit_select', value: '1', important: false, custom: false },
    { name: 'output_format_arrow_use_native_writer', value: '0', important: false, custom: false },
  ],
  queryPlanSerializationVersion: 3,
  clusterFunctionProtocolVersion: 8,
}

export const captured269 =
  '000a436c69636b486f7573651a09dca90308074574632f55544302766d020a6e6f746368756e6b65640a6e6f746368756e6b6564005e760f320c945d831d616c6c6f775f696e74726f7370656374696f6e5f66756e6374696f6e730001310e64656661756c745f666f726d6174000c5461625365706172617465640d6f75747075745f666f726d617400001873746f726167655f66696c655f726561645f6d6574686f6400046d6d61700f696d706c696369745f73656c65637400013100130a'

export const hello269: ServerHelloPacket = {
  ...hello267,
  versionMinor: 9,
  revision: 54492,
  nonce: 0x835d940c320f765en,
  settings: [
    { name: 'allow_introspection_functions', value: '1', important: false, custom: false },
    { name: 'default_format', value: 'TabSeparated', important: false, custom: false },
    { name: 'output_format', value: '', important: false, custom: false },
    { name: 'storage_file_read_method', value: 'mmap', important: false, custom: false },
    { name: 'implicit_select', value: '1', important: false, custom: false },
  ],
  queryPlanSerializationVersion: 19,
  clusterFunctionProtocolVersion: 10,
}
