import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

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
          exclude: [...configDefaults.exclude, '**/*.infra.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
