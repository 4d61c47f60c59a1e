import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { boundaries } from './eslint.boundaries.js'

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/generated', 'var', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Store methods answer Awaitable<T> (SQLite synchronously, PostgreSQL with a promise): a call
    // left un-awaited is a write racing the next request on PostgreSQL. Type-aware, so only where
    // the store is used.
    files: [
      'src/server/**/*.ts',
      'src/demo/**/*.ts',
      'scripts/**/*.ts',
      'tests/api/**/*.ts',
      'tests/cluster/**/*.ts',
      'tests/support/**/*.ts',
    ],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  ...boundaries,
)
