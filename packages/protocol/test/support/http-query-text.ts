// A live server over HTTP as an oracle for the parameter integration tests: it shares no
// code with clickwire's HTTP transport.

/** Runs one query over HTTP and returns the body; throws with the server's message on failure. */
export async function httpQueryText(httpUrl: string, sql: string, search = ''): Promise<string> {
  const response = await fetch(`${httpUrl}/${search}`, { method: 'POST', body: sql })
  const body = await response.text()
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${body.trim()}`)
  return body
}
