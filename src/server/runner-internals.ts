/**
 * What the runner gives the action's own process and no `run:` step, kept from the server `start` launches: a
 * detached server outlives the step and may run code the job did not write (a model's own code, a plugin), so it
 * gets the step's environment as a `run:` step would, not the action's. From the runner's
 * `NodeScriptActionHandler` (actions/runner, src/Runner.Worker/Handlers/): the Actions runtime's URL and token
 * (the job's cache and artifact credential), the cache and results services, and the OIDC token request (which
 * mints cloud credentials where `id-token: write` is set). The list is docs/server.md's; a user who needs one
 * passes it explicitly, in the `env:` of a later `run:` step.
 */

/** Every variable whose name starts with one of these (`ACTIONS_CACHE_URL`, a cache proxy's `ACTIONS_RESULTS_URL_ORIGINAL`, …). */
const RUNNER_PREFIXES = ['ACTIONS_RUNTIME_', 'ACTIONS_ID_TOKEN_', 'ACTIONS_CACHE_', 'ACTIONS_RESULTS_'] as const

/**
 * This step's own file commands: the action's outputs, the post step's state (the pid it stops), the next steps'
 * environment and PATH, the job summary. A server writing to them during the step would forge what the action
 * tells the runner.
 */
const STEP_FILES = ['GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STEP_SUMMARY'] as const

/** Whether the variable is one of the runner's internals (see the module comment). */
export const isRunnerInternal = (name: string): boolean =>
  RUNNER_PREFIXES.some((p) => name.startsWith(p)) || (STEP_FILES as readonly string[]).includes(name)
