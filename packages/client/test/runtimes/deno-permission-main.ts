// Deno run without --allow-net: every call is a UsageError whose message names the flag, on
// both transports, where it was a ConnectionError (retried, and the host set aside as down).
// Prints one line `CONFORMANCE {json}`: per URL, the error's class and message.
import { createClient } from '@clickwire/client'

const answers: Record<string, string> = {}
for (const url of process.argv.slice(2)) {
  const ch = createClient(url)
  try {
    await ch.ping()
    answers[url] = 'no error'
  } catch (error) {
    answers[url] = `${(error as Error).name}: ${(error as Error).message}`
  } finally {
    await ch.close()
  }
}
console.log(`CONFORMANCE ${JSON.stringify(answers)}`)
