// Imported for its effect: the codecs of the rarer families (Dynamic, JSON, Time, ...) load
// on demand, and unit tests make codecs synchronously, so they are loaded up front.
import { loadCodecs } from '../../src/columns/rare-codec-loader.js'

await loadCodecs()
