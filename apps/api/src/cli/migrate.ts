import { loadConfigOrExit, databaseOptions } from '../config.ts';
import { DatabaseNewerThanCodeError, newestShippedMigration, openDatabase } from '../db/client.ts';

/**
 * `npm run migrate`: brings the database to this code's schema and exits, for a deployment that migrates once before
 * it starts (or replaces) its instances. Several at once are safe: each waits for the others' lock and finds the work
 * done. Instances migrate at start too, under the same lock, so this step is optional.
 */
const config = loadConfigOrExit();
const database = await openDatabase(databaseOptions(config));
let exitCode = 0;
try {
  await database.migrate();
  console.log(`The database is at ${newestShippedMigration().tag}, this code's newest migration.`);
} catch (error) {
  if (!(error instanceof DatabaseNewerThanCodeError)) throw error;
  console.error(error.message);
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
