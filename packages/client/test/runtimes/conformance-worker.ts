// The conformance checks as a Cloudflare Worker: bundled as wrangler bundles it (conditions
// workerd, worker, browser) and served by workerd; GET /?url=<server URL> answers the
// results as JSON, check name -> result.
import { createClient } from '@clickwire/client'
import { runConformance } from './conformance-checks.ts'

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url).searchParams.get('url')
    if (!url) return new Response('missing ?url=', { status: 400 })
    return Response.json(await runConformance(createClient, url))
  },
}
