import { clickwireVitestConfig } from '../../vitest.shared.ts'

export default clickwireVitestConfig()
