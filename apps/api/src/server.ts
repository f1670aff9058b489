import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { loadConfigOrExit } from './config.ts';
import { announceEmbeddedServer } from './db/backup.ts';
import { devOutboxWarning } from './modules/messaging/outbox.routes.ts';

const config = loadConfigOrExit();

const app = await buildApp(config);
await app.listen({ port: config.port, host: config.host });
// On the embedded database, `npm run backup` asks this process for the copy (over loopback: the route answers nothing
// else) and `npm run restore` refuses to run beside it.
const { port } = app.server.address() as AddressInfo;
const forgetServer = config.databaseUrl ? undefined : announceEmbeddedServer(config.dataDir, `http://127.0.0.1:${port}`);

const url = config.publicUrl;
console.log(`\nTipcard is running at ${url}`);
if (config.devOutbox) {
  console.log(
    [
      'Sign in: open the site, choose "Sign up", enter any valid EEA or UK mobile number (e.g. +371 20 000 000).',
      'No SMS is sent outside production: the code is printed below as "[dev outbox] SMS to …" and listed at',
      `${url}/api/dev/outbox. API docs: ${url}/api/docs`,
    ].join('\n'),
  );
}
// The first admin's set-up link, only while the back office has no operator (decision 0039). Written to the
// terminal, not the structured log, like the dev outbox's codes.
const setupLink = await app.services.opsAuth.firstAdminSetupLink();
if (setupLink) console.log(`\nThe back office has no operator yet. Open this link to create the first admin:\n${setupLink}`);
const outboxWarning = devOutboxWarning(config);
if (outboxWarning) console.warn(`\n${outboxWarning}\n`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, closing`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => {
        forgetServer?.();
        process.exit(0);
      },
      (error) => {
        app.log.error(error);
        process.exit(1);
      },
    );
  });
}
