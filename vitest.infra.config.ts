import { defineConfig } from 'vitest/config';

/**
 * Tests that start infrastructure of their own on this machine (as root, Debian's packages) or take minutes: a
 * streaming replica (`npm run test:replica`), PgBouncer (`npm run test:pgbouncer`), the backup drill on the embedded
 * database (`npm run test:backup`). Kept out of `npm test`, each run on its own.
 */
export default defineConfig({
  test: {
    include: ['apps/api/**/*.infra.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
