import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { decimalAmount } from '@tipcard/shared/money/format';
import { loadConfigOrExit, databaseOptions } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import {
  createBatch,
  findBatch,
  latestCutoff,
  listBatches,
  markBatchPayouts,
  markBatchSent,
  markPayout,
} from '../modules/payouts/payouts.service.ts';
import { CLI_ACTOR, recordAudit, type AuditEvent } from '../modules/ops/ops.service.ts';
import { createServices } from '../services.ts';
import { safeLogOptions } from '../lib/log-safety.ts';

/**
 * The operator's payout commands until the back office exists (docs/decisions/0007-payouts.md):
 *
 *   npm run payouts:export -- [directory] [--all]   make the due batches, write every unsent file, print the paths
 *   npm run payouts:mark -- batch <id> sent|paid|returned [reason]
 *   npm run payouts:mark -- payout <id> paid|returned [reason]
 *
 * `--all` puts every confirmed payout into the files, not only those up to the latest 14:00 Riga cut-off.
 */
const USAGE = `usage:
  payouts:export -- [directory] [--all]
  payouts:mark -- batch <batch id or message id> sent|paid|returned [reason]
  payouts:mark -- payout <payout id> paid|returned [reason]`;

const [command, ...args] = process.argv.slice(2);
const config = loadConfigOrExit();
const log = pino({ level: config.logLevel, ...safeLogOptions });
const database = await openDatabase(databaseOptions(config));
await database.migrate();
const { db } = database;
const now = createServices(config, db, log).clock.now();

/** The back office's audit record, by operator `cli`, for what this command changed. */
const audit = (event: AuditEvent) => db.transaction((tx) => recordAudit(tx, { actor: CLI_ACTOR, ip: null }, event));

function fail(message: string): never {
  console.error(message);
  process.exitCode = 1;
  throw new Error(message);
}

try {
  if (command === 'export') {
    const all = args.includes('--all');
    // npm runs this in apps/api (so DATA_DIR means what it means for `npm start`); a directory given on the command
    // line is meant relative to where the operator typed it.
    const given = args.find((arg) => !arg.startsWith('--'));
    const directory = given ? resolve(process.env.INIT_CWD ?? process.cwd(), given) : join(config.dataDir, 'payout-files');
    const cutoff = all ? now : latestCutoff(now);
    for (const kind of ['sepa', 'uk'] as const) await createBatch({ db, log, debtor: config.payouts.debtor }, kind, cutoff, now);
    mkdirSync(directory, { recursive: true });
    const unsent = await listBatches(db, 'created');
    if (unsent.length === 0) console.log('No unsent payout files.');
    for (const batch of unsent) {
      const path = join(directory, batch.fileName);
      writeFileSync(path, batch.content);
      console.log(
        `${path}\t${batch.kind}\t${batch.payoutCount} payouts\t${decimalAmount(batch.totalCents)} EUR\tbatch ${batch.id}`,
      );
    }
  } else if (command === 'mark') {
    const [target, id, outcome, ...reasonWords] = args;
    const reason = reasonWords.join(' ') || undefined;
    if (!id || (target !== 'batch' && target !== 'payout')) fail(USAGE);
    if (target === 'batch') {
      const batch = (await findBatch(db, id)) ?? fail(`No batch ${id}`);
      if (outcome === 'sent') {
        const marked = await markBatchSent(db, batch.id, now);
        if (marked)
          await audit({
            action: 'payout_batch.sent',
            subjectType: 'payout_batch',
            subjectId: batch.id,
            before: { status: 'created' },
            after: { status: 'sent' },
          });
        console.log(marked ? `Batch ${batch.id} marked sent.` : `Batch ${batch.id} was already sent.`);
      } else if (outcome === 'paid' || outcome === 'returned') {
        const changed = await markBatchPayouts(db, batch.id, outcome, now, reason);
        if (changed > 0)
          await audit({
            action: `payout_batch.${outcome}`,
            subjectType: 'payout_batch',
            subjectId: batch.id,
            before: null,
            after: { payouts: changed, ...(reason ? { reason } : {}) },
          });
        console.log(`${changed} payouts of batch ${batch.id} marked ${outcome}.`);
      } else fail(USAGE);
    } else {
      if (outcome !== 'paid' && outcome !== 'returned') fail(USAGE);
      const marked = await markPayout(db, id, outcome, now, reason);
      if (marked)
        await audit({
          action: `payout.${outcome}`,
          subjectType: 'payout',
          subjectId: id,
          before: { status: 'in_flight' },
          after: { status: outcome, ...(reason ? { reason } : {}) },
        });
      console.log(marked ? `Payout ${id} marked ${outcome}.` : `Payout ${id} is not in flight: nothing changed.`);
    }
  } else {
    fail(USAGE);
  }
} catch (error) {
  if (process.exitCode !== 1) {
    console.error(error);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
