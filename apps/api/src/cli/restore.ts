import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfigOrExit } from '../config.ts';
import { restoreEmbedded, restorePostgres } from '../db/backup.ts';

/**
 * `npm run restore -- <file>`: puts back what `npm run backup` made. PostgreSQL (DATABASE_URL): pg_restore replaces
 * the database's contents in one transaction; stop the instances first. The embedded database: refused while a server
 * runs on DATA_DIR; the current one is kept beside the restored one (docs/operations.md "Backups").
 */
const config = loadConfigOrExit();
const [given] = process.argv.slice(2);
if (!given) {
  console.error('Usage: npm run restore -- <file>');
  process.exit(2);
}
const file = resolve(process.env.INIT_CWD ?? process.cwd(), given);

try {
  if (config.databaseUrl) {
    await restorePostgres(config.databaseUrl, file);
    console.log(`Restored ${file} into the database of DATABASE_URL.`);
  } else {
    const kept = await restoreEmbedded(config.dataDir, readFileSync(file), new Date());
    console.log(`Restored ${file} into ${config.dataDir}.${kept ? ` The previous database is kept in ${kept}.` : ''}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
