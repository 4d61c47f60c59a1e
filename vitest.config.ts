import { defineConfig } from 'vitest/config'

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
          // The PostgreSQL store's tests (and the API suite's PostgreSQL half) need a cluster.
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
