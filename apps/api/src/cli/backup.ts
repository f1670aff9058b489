import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfigOrExit, databaseOptions } from '../config.ts';
import { backupToken, dumpPostgres, runningEmbeddedServer } from '../db/backup.ts';
import { openDatabase } from '../db/client.ts';

/**
 * `npm run backup -- <file>`: a copy of the database, safe while Tipcard runs. PostgreSQL (DATABASE_URL): pg_dump's
 * custom format. The embedded database: asked of the server running on DATA_DIR, or read from DATA_DIR when none
 * runs. `npm run restore -- <file>` puts it back (docs/operations.md "Backups").
 */
const config = loadConfigOrExit();
const [given] = process.argv.slice(2);
if (!given) {
  console.error('Usage: npm run backup -- <file>   (e.g. tipcard-2026-11-26.backup)');
  process.exit(2);
}
// npm runs this inside the workspace: a relative path means relative to where npm was started.
const file = resolve(process.env.INIT_CWD ?? process.cwd(), given);

if (config.databaseUrl) {
  await dumpPostgres(config.databaseUrl, file);
} else {
  const server = runningEmbeddedServer(config.dataDir);
  if (server) {
    const answer = await fetch(`${server.url}/api/internal/backup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${backupToken(config.jwtSecret)}` },
    });
    if (!answer.ok) {
      console.error(`The server at ${server.url} answered ${answer.status}: is it this DATA_DIR's, with the same JWT_SECRET?`);
      process.exit(1);
    }
    writeFileSync(file, Buffer.from(await answer.arrayBuffer()));
  } else {
    const database = await openDatabase(databaseOptions(config));
    try {
      writeFileSync(file, await database.dumpEmbedded!());
    } finally {
      await database.close();
    }
  }
}
console.log(`Backed up to ${file}`);
