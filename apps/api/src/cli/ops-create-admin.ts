import pino from 'pino';
import { z } from 'zod';
import { loadConfigOrExit, databaseOptions } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { AppError } from '../lib/app-error.ts';
import { CLI_ACTOR } from '../modules/ops/ops.service.ts';
import { createServices } from '../services.ts';

/**
 * `npm run ops:create-admin -- <email>`: the first back-office operator (or another admin). Prints a one-time
 * enrolment link (72 hours) where they set a password and enrol an authenticator app. Recorded in the audit log as
 * `cli`. With the embedded database, stop the server first (PGlite allows one process per data directory).
 */
const [email] = process.argv.slice(2);
if (!email || !z.email().safeParse(email).success) {
  console.error('Usage: npm run ops:create-admin -- <email>');
  process.exit(2);
}

const config = loadConfigOrExit();
const database = await openDatabase(databaseOptions(config));
let exitCode = 0;
try {
  await database.migrate();
  const services = createServices(config, database.db, pino({ level: config.logLevel }));
  const { enrolment_url } = await services.opsAuth.createOperator({ email, role: 'admin' }, { actor: CLI_ACTOR, ip: null });
  console.log(
    `Admin ${email.toLowerCase()} created. Open this link once, within 72 hours, to set a password and enrol the authenticator app:\n${enrolment_url}`,
  );
} catch (error) {
  if (!(error instanceof AppError)) throw error;
  console.error(error.message);
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
