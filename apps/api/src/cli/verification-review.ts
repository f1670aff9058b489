import { normalizePhone } from '@tipcard/shared/auth/phone';
import { loadConfigOrExit, databaseOptions } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import pino from 'pino';
import { createServices } from '../services.ts';
import {
  findUserForReview,
  ReviewError,
  reviewVerification,
  type ReviewDecision,
} from '../modules/verification/verification.service.ts';
import { safeLogOptions } from '../lib/log-safety.ts';
import { CLI_ACTOR, recordAudit } from '../modules/ops/ops.service.ts';

/**
 * `npm run verification:review -- <user id or phone> approve|reject "reason"`: the operator's decision on a user's
 * pending identity verification, until the back office exists. The user's SMS is queued with the decision and sent
 * by the worker (the server's own, or `npm run worker`). With the embedded database, stop the server first: PGlite
 * allows one process per data directory.
 */
const USAGE = 'Usage: npm run verification:review -- <user id or phone> approve|reject "reason"';

const [reference, decision, ...reasonParts] = process.argv.slice(2);
if (!reference || (decision !== 'approve' && decision !== 'reject')) {
  console.error(USAGE);
  process.exit(2);
}

const config = loadConfigOrExit();
const database = await openDatabase(databaseOptions(config));
const services = createServices(config, database.db, pino({ level: config.logLevel, ...safeLogOptions }));
let exitCode = 0;
try {
  await database.migrate();
  const user = await findUserForReview(database.db, reference, normalizePhone);
  const result = await reviewVerification(
    database.db,
    services.messages,
    {
      user,
      decision: decision satisfies ReviewDecision,
      reason: reasonParts.join(' ') || null,
      now: services.clock.now(),
    },
    (tx, before, after) =>
      // The same record the back office writes, by operator `cli`.
      recordAudit(
        tx,
        { actor: CLI_ACTOR, ip: null },
        {
          action: `verification.${decision}`,
          subjectType: 'verification',
          subjectId: before.id,
          before: { status: before.status },
          after: { status: after.status, rejection_reason: after.rejectionReason },
        },
      ),
  );
  console.log(
    `Verification of user ${user.id} (${user.phone}) is now ${result.status}${result.reason ? ` (reason: "${result.reason}")` : ''}. The user will be told by SMS.`,
  );
} catch (error) {
  if (!(error instanceof ReviewError)) throw error;
  console.error(error.message);
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
