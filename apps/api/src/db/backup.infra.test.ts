import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_SIGNATURE_HEADER } from '../integrations/sandbox-psp/sandbox-provider.ts';
import { userBalances } from '../modules/ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../modules/transactions/transactions.service.ts';
import {
  appliedOutcomeOf,
  openPayment,
  payAtSandboxCheckout,
  sandboxSigner,
  settleSandboxPayment,
} from '../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../test/test-app.ts';
import { announceEmbeddedServer, backupToken } from './backup.ts';
import { openDatabase, type DatabaseHandle } from './client.ts';

const run = promisify(execFile);
const API = new URL('../../', import.meta.url).pathname;
const JWT_SECRET = 'a-drill-secret-that-is-long-enough-for-hs256';

/**
 * `npm run test:backup`: the restore drill of docs/operations.md on the embedded database, with the real commands. Its
 * own script: PGlite on disk migrates slowly (half a minute on a busy machine).
 */

/** `npm run backup` / `npm run restore` as an operator runs them, on the embedded database in `dataDir`. */
const command = (name: 'backup' | 'restore', dataDir: string, file: string) =>
  run(process.execPath, ['--import', 'tsx', `src/cli/${name}.ts`, file], {
    cwd: API,
    // The operator's environment: the embedded database (no DATABASE_URL), the server's DATA_DIR and secret.
    env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET, LOG_LEVEL: 'silent' },
  });

/** The real app on the embedded database in `dataDir`, listening on loopback as `npm start` does. */
async function startEmbedded(dataDir: string): Promise<{ t: TestApp; database: DatabaseHandle; stop: () => Promise<void> }> {
  const database = await openDatabase({ pgliteDir: dataDir });
  await database.migrate();
  const t = await createTestApp({
    // Guests keep paying one card for as long as the backup takes: on a slow machine, more than the per-card limit
    // against card testing lets through in ten minutes, which is not what this drill is about.
    env: {
      SANDBOX_WEBHOOK_DELAY_MS: '0',
      HOLD_HOURS: '24',
      FEE_PERCENT: '0',
      CHECKOUTS_PER_CARD_PER_10_MINUTES: '100000',
      CHECKOUTS_GLOBAL_PER_MINUTE: '100000',
    },
    config: { jwtSecret: JWT_SECRET, dataDir },
    overrides: { database },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const forget = announceEmbeddedServer(dataDir, `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`);
  return {
    t,
    database,
    async stop() {
      forget();
      await t.close();
      await database.close();
    },
  };
}

/** A guest's tip paid through the sandbox's hosted page; the sandbox's own sender delivers its event. */
async function paidTip(t: TestApp, cardId: string, cents: number) {
  const payment = await openPayment(t, cardId, cents);
  await payAtSandboxCheckout(t, payment);
  await settleSandboxPayment(t, payment.id);
  return payment;
}

describe('backup drill on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tipcard-drill-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it(
    'backs up while tips are paid, restores the earlier point with sound books, and takes the provider’s later events',
    {
      timeout: 300_000,
    },
    async () => {
      const first = await startEmbedded(dataDir);
      let t = first.t;
      // The route `npm run backup` asks: this machine only, with the token.
      const ask = (token: string, remoteAddress = '127.0.0.1') =>
        t.call({ method: 'POST', url: '/api/internal/backup', remoteAddress, headers: { authorization: `Bearer ${token}` } });
      expect((await ask('wrong')).status).toBe(404);
      expect((await ask(backupToken(JWT_SECRET), '10.0.0.7')).status).toBe(404);
      const staff = await signUpWithCard(t);
      const before = [await paidTip(t, staff.cardId, 1_000), await paidTip(t, staff.cardId, 2_500)];
      // Opened before the backup, paid after it: the restored books know it as pending.
      const paidLater = await openPayment(t, staff.cardId, 700);

      // The backup, taken through the running server while guests keep paying, one after another, until it is done.
      const file = join(dataDir, 'drill.backup');
      let backingUp = true;
      const backingUpRun = command('backup', dataDir, file).finally(() => (backingUp = false));
      const during = [];
      while (backingUp) during.push(await paidTip(t, staff.cardId, 300 + during.length));
      const backup = await backingUpRun;
      expect(backup.stdout).toContain(`Backed up to ${file}`);
      await payAtSandboxCheckout(t, paidLater);
      await settleSandboxPayment(t, paidLater.id);
      const after = await paidTip(t, staff.cardId, 5_000);
      const allPayments = [...before, paidLater, ...during, after];
      // What the provider sent, kept on its side whatever happens to our database.
      const providerEvents = (
        (await t.app.db.execute(sql`SELECT body FROM sandbox_events ORDER BY created_at`)) as unknown as {
          rows: { body: string }[];
        }
      ).rows.map((row) => row.body);
      expect(providerEvents).toHaveLength(allPayments.length);

      await expect(command('restore', dataDir, file)).rejects.toThrow(/stop it first/);
      await first.stop();
      const restored = await command('restore', dataDir, file);
      expect(restored.stdout).toContain('The previous database is kept in');
      expect(readdirSync(dataDir).some((name) => name.startsWith('pglite.before-restore-'))).toBe(true);

      const second = await startEmbedded(dataDir);
      t = second.t;
      try {
        expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
        const statusOf = async (id: string) =>
          (await t.app.services.payments.getPublicPayment(id).catch(() => ({ status: 'unknown' }))).status;
        const restoredStatus = new Map(await Promise.all(allPayments.map(async (p) => [p.id, await statusOf(p.id)] as const)));
        // The earlier point: the tips before the backup, the one still pending, none made after it.
        expect(before.map((p) => restoredStatus.get(p.id))).toEqual(['succeeded', 'succeeded']);
        expect(restoredStatus.get(paidLater.id)).toBe('pending');
        expect(restoredStatus.get(after.id)).toBe('unknown');
        // A tip paid during the backup is in it paid, or opened and not yet paid (its success came after the snapshot:
        // the provider's resent event applies it below), or not at all; never half of one.
        for (const p of during) expect(['succeeded', 'pending', 'unknown']).toContain(restoredStatus.get(p.id));
        console.log(
          `tips paid during the backup found in it: ${during.filter((p) => restoredStatus.get(p.id) === 'succeeded').length} of ${during.length}`,
        );
        const credited = (statuses: Map<string, string>) =>
          allPayments.filter((p) => statuses.get(p.id) === 'succeeded').reduce((sum, p) => sum + p.amount_cents, 0);
        expect((await userBalances(t.app.db, staff.userId)).hold).toBe(credited(restoredStatus));

        // The provider resends what it sent: each event is taken once, applied where the books wait for it (the
        // backup may hold it recorded and not yet applied: then the workers apply the copy it holds), and a payment
        // the restored books never saw is refused as a mismatch, crediting nothing.
        const signer = sandboxSigner(t);
        const answers = new Map<string, string>();
        for (const body of providerEvents) {
          const delivered = await t.call({
            method: 'POST',
            url: '/api/webhooks/sandbox',
            headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signer.signEvent(body) },
            payload: body,
          });
          expect(delivered.status).toBe(200);
          const { id, payment_id } = JSON.parse(body) as { id: string; payment_id: string };
          answers.set(payment_id, `${delivered.body.data.outcome} → ${await appliedOutcomeOf(t, id)}`);
        }
        for (const p of allPayments) {
          const restoredAs = restoredStatus.get(p.id)!;
          const expected = {
            succeeded: ['duplicate → applied'],
            pending: ['recorded → applied', 'duplicate → applied'],
            unknown: ['recorded → mismatch'],
          }[restoredAs];
          expect(expected, `${p.amount_cents} cents, restored ${restoredAs}`).toContain(answers.get(p.id));
        }
        expect(await statusOf(paidLater.id)).toBe('succeeded');
        const now = new Map(await Promise.all(allPayments.map(async (p) => [p.id, await statusOf(p.id)] as const)));
        expect((await userBalances(t.app.db, staff.userId)).hold).toBe(credited(now));
        expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
      } finally {
        await second.stop();
      }
    },
  );
});
