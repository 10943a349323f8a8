/** What the history found of this run against the earlier ones: the run's history finds it, the outcome carries it. */
export interface RunFindings {
  /** The median startup of the last ready runs with this history key. */
  expectedSeconds?: number
  regressionPercent?: number
  /** In words, when the startup was slower than the threshold allows. */
  regression?: string
  /** In words, when the environment differs from the previous run's. */
  drift?: string
  /** The median smoke-test decode rate of the earlier runs, when they measured one. */
  usualDecodeTokensPerSecond?: number
  /** In words, when the smoke test's decode rate was lower than the throughput threshold allows. */
  throughputRegression?: string
  notices: string[]
}
