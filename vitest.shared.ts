import { fileURLToPath } from 'node:url'
import { defineConfig, type TestProjectInlineConfiguration, type ViteUserConfig } from 'vitest/config'

/** Packages are resolved to their TypeScript sources, so tests never need a build. */
const sourceConditions = ['@clickwire/source', 'module', 'node', 'development|production']

const globalSetup = fileURLToPath(new URL('./packages/testing/src/global-setup.ts', import.meta.url))

/**
 * The vitest setup every package shares: a `unit` project for `src/**\/*.test.ts` (pure,
 * no server) and an `integration` project for `test/**\/*.test.ts`, which gets one
 * throwaway ClickHouse server per run from `@clickwire/testing`'s global setup.
 */
export function clickwireVitestConfig(
  options: { integration?: Partial<TestProjectInlineConfiguration['test']> } = {},
): ViteUserConfig {
  const resolve = { conditions: sourceConditions }
  return defineConfig({
    resolve,
    ssr: { resolve: { conditions: sourceConditions, externalConditions: sourceConditions } },
    test: {
      projects: [
        {
          extends: true,
          test: {
            name: 'unit',
            include: ['src/**/*.test.ts'],
            environment: 'node',
            testTimeout: 30_000,
          },
        },
        {
          extends: true,
          test: {
            name: 'integration',
            include: ['test/**/*.test.ts'],
            environment: 'node',
            globalSetup: [globalSetup],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            ...options.integration,
          },
        },
      ],
    },
  })
}
