/** ts-jest in ESM mode: NodeNext-style "./x.js" imports map to the .ts sources. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['**/__tests__/**/*.test.ts'],
  testTimeout: 30000,
  // Three files at a time on this project's 2-core machine, more than its cores: the end-to-end files mostly wait
  // (on servers that load, on timeouts), and jest's default (one worker fewer than the cores) ran them one by one.
  // They share no port (each server asks the kernel for a free one; tests that count requests count their own path,
  // helpers/loopback.ts ownPath) and no file (each test's sandbox; the history under the run's cache), and their
  // bounds hold under load (bound by events, or stretched by the load measured during the run: helpers/bounds.ts).
  maxWorkers: 3,
  // The run's temporary files go under a directory of its own (a short name: error messages quote some paths whole), which must be empty at the end (helpers/tmp-*.mjs);
  // jest's own cache stays out of the temporary directory.
  globalSetup: '<rootDir>/__tests__/helpers/tmp-setup.mjs',
  globalTeardown: '<rootDir>/__tests__/helpers/tmp-teardown.mjs',
  cacheDirectory: '<rootDir>/node_modules/.cache/jest'
}
