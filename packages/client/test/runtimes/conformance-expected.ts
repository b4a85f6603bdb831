// What every runtime's conformance run (conformance-checks.ts) must answer, per transport:
// the server's own renderings, fixed here, shared by the tests that run the checks.

/** What every runtime must answer: the server's own renderings, fixed here. */
export function expectedConformance(transport: 'native' | 'http'): Record<string, string> {
  const sums = '(200000,2177780) (5000,12497500,5000)'
  return {
    ping: 'ok',
    'rows with params': '[{"x":"42n","s":"é \\"q\\" \\\\ \\t"}]',
    'sql tag': '[{"v":"42n","w":"x y"}]',
    columns: 'Uint32Array 0,1,2,3,4 0,1,2,3,4',
    arrow: '1000 rows, n:Uint32 s:Utf8, sum 499500',
    'streaming 1M rows': '1000000 rows, sum 499999500000',
    'insert rows and a stream': '10000 streamed; (10002,51995001,10000)',
    'server error': 'ClickHouseError 60',
    'abort stops the query on the server': 'seen running true, AbortError, left running 0',
    'every compression':
      transport === 'native'
        ? `none ${sums}; lz4 ${sums}; zstd ${sums}`
        : `none ${sums}; gzip ${sums}; lz4 ${sums}; zstd ${sums}; frames ${sums}`,
    'raw format': transport === 'native' ? 'http only' : '0,"0"\n1,"2"\n2,"4"\n',
  }
}
