#!/usr/bin/env node
// The built CLI; `pnpm --filter @clickwire/codegen build` writes dist/.
import { main } from '../dist/cli/cli-main.js'

await main()
