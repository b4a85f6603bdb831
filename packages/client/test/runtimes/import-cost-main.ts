// What `import("@clickwire/client")` loads, and what a client of each transport adds, in a
// Node process of its own: the packages and the Node built-ins that are heavy to compile.
// Prints one line `IMPORTS {json}`. Needs module.registerHooks (Node 22.15+, 23.5+).
import * as nodeModule from 'node:module'

/** Node 22.15+'s in-thread module hooks (newer than the @types/node of the Node 20 floor). */
type LoadHook = (
  url: string,
  context: unknown,
  nextLoad: (url: string, context: unknown) => unknown,
) => unknown
const { registerHooks } = nodeModule as unknown as { registerHooks(hooks: { load: LoadHook }): void }

const packages = new Set<string>()
registerHooks({
  load(url, context, nextLoad) {
    const match = /(?:packages|@clickwire)\/(protocol|native|http|client)\/dist\//.exec(url)
    if (match) packages.add(`@clickwire/${match[1]}`)
    if (/\/undici\//.test(url)) packages.add('undici')
    return nextLoad(url, context)
  },
})
const heavyBuiltins = ['tls', 'net', 'http', 'https', 'zlib', 'crypto']
const loadList = (process as unknown as { moduleLoadList: string[] }).moduleLoadList
const before = new Set(heavyBuiltins.filter((name) => loadList.includes(`NativeModule ${name}`)))

/** The packages and new heavy built-ins loaded so far, sorted. */
const snapshot = () =>
  [
    ...packages,
    ...heavyBuiltins
      .filter((name) => !before.has(name) && loadList.includes(`NativeModule ${name}`))
      .map((name) => `node:${name}`),
  ]
    .sort()
    .join(' ')

const { createClient } = await import('@clickwire/client')
const afterImport = snapshot()
// Port 9 (discard) on loopback: nothing is sent, the client only loads its transport.
const native = createClient('clickhouse://127.0.0.1:9/default')
await native.close()
const afterNative = snapshot()
const http = createClient('http://127.0.0.1:9/')
await http.close()
const afterHttp = snapshot()
console.log(`IMPORTS ${JSON.stringify({ afterImport, afterNative, afterHttp })}`)
