import os from 'node:os'
import { defineConfig } from 'vitest/config'

// Unit and API files run one per core. Vitest's default is one worker fewer than the cores, which
// on the 2-core CI machine is a single worker; these files mostly wait on an in-process server,
// PostgreSQL, GDAL or a child process, and a second file can use the second core meanwhile. Both
// projects run in one pool and must ask for the same number.
const apiWorkers = Math.max(2, os.availableParallelism())

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.ts',
            'src/**/*.test.tsx',
            'scripts/**/*.test.ts',
            'tests/api/**/*.test.ts',
            'tests/config/**/*.test.ts',
            'tests/lint/**/*.test.ts',
            'tests/cluster/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 30000,
          maxWorkers: apiWorkers,
          // The PostgreSQL store's tests (and the API suite's PostgreSQL half) need a cluster.
          globalSetup: ['tests/support/pgGlobalSetup.ts'],
        },
      },
      {
        // The API suite again on PostgreSQL/PostGIS (#19): the same files, each test app's store a
        // fresh database on the throw-away cluster (src/server/store/testing/dataDirStore.ts).
        test: {
          name: 'api-pg',
          include: ['tests/api/**/*.test.ts'],
          exclude: [
            // SQLite files and the CLIs on a data directory (the CLIs on DATABASE_URL: tests/cluster).
            'tests/api/import.test.ts',
            'tests/api/import-signin.test.ts',
            'tests/api/seed.test.ts',
            'tests/api/storeWithoutFile.test.ts',
            // Already runs both stores itself.
            'tests/api/storeParity.test.ts',
          ],
          environment: 'node',
          testTimeout: 30000,
          maxWorkers: apiWorkers,
          env: { EMBERLINE_TEST_STORE: 'postgres' },
          globalSetup: ['tests/support/pgGlobalSetup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120000,
          hookTimeout: 180000,
          fileParallelism: false,
          globalSetup: ['tests/e2e/support/globalSetup.ts'],
        },
      },
    ],
  },
})
