import { writeFileSync } from 'node:fs';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

/**
 * `npm run openapi -- <file>`: writes the API's OpenAPI document, generated from the routes' zod schemas, for the
 * contract lint and the web app's generated types. Builds the app on a throwaway in-memory database.
 */
const [target] = process.argv.slice(2);
if (!target) {
  console.error('usage: npm run openapi -- <file.json>');
  process.exit(1);
}
const config = loadConfig(
  { NODE_ENV: 'development', WORKER: 'off', LOG_LEVEL: 'silent' },
  {
    inMemoryDatabase: true,
    jwtSecret: 'openapi-document-only-secret-not-used-to-sign-anything',
    // Push's routes as production has them, and no sandbox key pair written to the data folder for a document.
    push: {
      publicKey: 'document-only',
      privateKey: 'document-only',
      subject: 'mailto:ops@localhost',
      allowLoopbackEndpoints: false,
    },
  },
);
const app = await buildApp(config);
await app.ready();
writeFileSync(target, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
