import { createClient } from '@clickwire/client'
const ch = createClient(process.argv[2])
for (const q of [`SELECT number::Dynamic AS d FROM numbers(10000000)`, `SELECT toJSONString(map('a', number))::JSON AS j FROM numbers(1000000)`]) {
  try { const rs = await ch.query(q); let n=0; for await (const b of rs.blocks()) n+=b.rows; console.log(q, n) } catch (e) { console.log(q, 'ERR', e.name, e.message) }
}
try { const rs = await ch.query('SELECT 1 AS x'); console.log(await rs.rows()) } catch (e) { console.log('after', e.name, e.message) }
await ch.close()
