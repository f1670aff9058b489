import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/** API tests that replace a module with `vi.mock`: in a worker shared with other files the mock could miss or leak. */
const MOCKING_API_TESTS = ['apps/api/src/modules/ops/ops-sign-in-lockout.test.ts'];
/** What every API test runs with, isolated or not: an app on a database of its own takes seconds to start. */
const API_TEST_RUN = { environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 } as const;

export default defineConfig({
  test: {
    // Vitest's default keeps a core for itself: one worker on CI's two. The API tests spend much of their time waiting
    // on PostgreSQL, so a worker per core ran the whole suite there in 830 s instead of 1,290 s.
    maxWorkers: availableParallelism(),
    projects: [
      { test: { name: 'shared', include: ['packages/shared/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'sim', include: ['e2e/sim/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'api',
          include: ['apps/api/**/*.test.ts'],
          // Those start a replica or PgBouncer of their own, or take minutes: vitest.infra.config.ts (npm run test:replica…).
          // A file that mocks a module runs isolated, below.
          exclude: [...configDefaults.exclude, '**/*.infra.test.ts', ...MOCKING_API_TESTS],
          ...API_TEST_RUN,
          // A worker imports the app's modules once for all its files, not once per file: importing them took half of
          // the API tests' time (213 s of 444 s for the money folders, 22 s without isolation). Each file still builds
          // its own app on its own database; state that must not cross files lives in the app, not in a module.
          isolate: false,
        },
      },
      {
        test: {
          name: 'api-isolated',
          include: MOCKING_API_TESTS,
          ...API_TEST_RUN,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test-setup.ts'],
          // A file's first render compiles its lazily loaded screens: on a busy 2-core machine that alone can pass 5 s.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
