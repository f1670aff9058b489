/**
 * One simulated world: a fresh database copied from the migrated template, two API servers and two workers on it,
 * two enrolled finance-capable operators, and the simulator's own model of what it created (users, teams, payments,
 * orders, invoices, payouts, refund intentions), which actions refer to by index so a recorded list replays anywhere.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../apps/api/src/db/client.ts';
import { totpCode, totpStep } from '../../apps/api/src/modules/ops/credentials.ts';
import {
  clusterClient,
  clusterEnv,
  clusterInstances,
  createDatabase,
  kill9,
  newClientFigures,
  ROOT,
  start,
  stopAll,
  untilReady,
  type Answer,
  type CallOptions,
  type Instance,
} from '../cluster/processes.ts';

export const OPERATOR_PASSWORD = 'Simulated-operator-1';

/** What the template database holds besides the migrations: two operators' one-time enrolment tokens. */
export interface Template {
  name: string;
  jwtSecret: string;
  operators: { email: string; enrolmentToken: string }[];
  /** The template's rows (migrations' own data and the operators), table by table, to bring a run's database back to it. */
  tables: { name: string; rows: unknown[]; serials: string[] }[];
}

export interface SimUser {
  phone: string;
  ip: string;
  token: string;
  userId: string;
  clientId: string;
  referralCode: string;
  cardId: string | null;
  charity: boolean;
  methodId: string | null;
  /** Who invited them (an index into users), for the referral invariant. */
  referredBy: number | null;
  deleted: boolean;
  /** When the deletion was answered (the database's deletion time moves with `timeJump`). */
  deletedAt: Date | null;
}

export interface SimPayment {
  id: string;
  purpose: string;
  /** The simulated payer (a person, whatever card or wallet they use). */
  payer: number;
  /**
   * Who the provider saw pay: a card's own payer, or the sandbox wallet payer the simulated person's wallet names (a
   * wallet and a card of one person are two payers to a provider, as a card fingerprint is per card); null until paid.
   */
  paidBy: string | null;
  totalCents: number;
  checkoutUrl: string;
  /** What the operators meant to give back in total: one amount per distinct Idempotency-Key answered. */
  intendedRefundCents: number;
  /** How many Idempotency-Keys were answered `awaiting_approval`: one refund request each. */
  approvalKeys: number;
}

export interface SimTeam {
  teamId: string;
  cardId: string;
  admin: number;
  /** The venue (workplace) the team belongs to: its first team's, or one a venue admin added (`addVenueTeam`). */
  workplaceId: string;
}

/** An adjustment of a locked period the simulator asked for (decision 0059), and what the API answered. */
export interface SimAdjustment {
  key: string;
  /** The user (index) who sent it: the Idempotency-Key is theirs. */
  by: number;
  teamId: string;
  month: string;
  fromUserId: string;
  toUserId: string;
  amountCents: number;
  reason: string;
  /** The adjustment's id once an answer named it; the last status answered (0: no answer came). */
  id: string | null;
  status: number;
}

/** A venue card the simulator had made (decision 0058): its workplace, and the team whose admin opened it. */
export interface SimVenue {
  workplaceId: string;
  cardId: string;
  team: number;
}

export interface Operator {
  email: string;
  token: string;
  id: string;
}

export interface Figures {
  steps: number;
  actions: Record<string, number>;
  skipped: Record<string, number>;
  kills: number;
  invariantChecks: number;
  actionErrors: number;
}

const newSalt = () => Math.floor(Math.random() * 200) + 20;

export class World {
  readonly users: SimUser[] = [];
  readonly teams: SimTeam[] = [];
  readonly venues: SimVenue[] = [];
  readonly payments: SimPayment[] = [];
  readonly orders: { id: string; user: number; paymentId: string | null; checkoutUrl: string | null; canceled: boolean }[] = [];
  readonly invoices: { id: string; user: number }[] = [];
  readonly payouts: { id: string; user: number }[] = [];
  readonly operators: Operator[] = [];
  /** Each period the simulator saw locked (`teamId month`) and its fingerprint at the lock (decision 0055). */
  readonly lockedPeriods = new Map<string, string>();
  /** Every adjustment asked for, retries folded into their first request. */
  readonly adjustments: SimAdjustment[] = [];
  readonly clientFigures = newClientFigures();
  readonly figures: Figures = { steps: 0, actions: {}, skipped: {}, kills: 0, invariantChecks: 0, actionErrors: 0 };
  /** Broken invariants, the first occurrence of each by name. */
  readonly failures = new Map<string, string>();
  /** The end's checks are running: the workers have drained, so nothing is still on its way. */
  ending = false;
  readonly logs = mkdtempSync(join(tmpdir(), 'tipcard-sim-'));
  /** Varies per run (not per seed): addresses and phones, so nothing kept in the shared Redis carries over. */
  salt = newSalt();
  private phoneCounter = 0;
  private restarting: Promise<void> | undefined;
  readonly servers: Instance[];
  readonly workers: Instance[];
  readonly call: (prefer: number, ip: string, method: string, path: string, options?: CallOptions) => Promise<Answer>;
  readonly codeFrom: (prefer: number, phone: string, marker?: string) => Promise<string>;
  pool!: pg.Pool;
  database!: Awaited<ReturnType<typeof openDatabase>>;
  private env: NodeJS.ProcessEnv = {};
  private dropDatabase: (() => Promise<void>) | undefined;
  refundApprovalCents = 10_000;
  jwtSecret = '';

  private template!: Template;

  /** `observe`: each answer's time and status (the soak's figures). */
  constructor(basePort: number, observe?: (answer: { ms: number; status: number }) => void) {
    ({ servers: this.servers, workers: this.workers } = clusterInstances(basePort));
    ({ call: this.call, codeFrom: this.codeFrom } = clusterClient(this.servers, this.clientFigures, observe));
  }

  fail(invariant: string, detail: string) {
    if (!this.failures.has(invariant)) this.failures.set(invariant, `step ${this.figures.steps}: ${detail}`);
  }

  /** A payment's index in the model (`#7`), or its id when the simulator did not make it (a monthly charge). */
  label(paymentId: string): string {
    const index = this.payments.findIndex((payment) => payment.id === paymentId);
    return index >= 0 ? `#${index}` : paymentId;
  }

  userIndex(userId: string): number {
    return this.users.findIndex((user) => user.userId === userId);
  }

  async rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
    return (await this.pool.query(text, values)).rows as T[];
  }

  nextPhone(): string {
    this.phoneCounter += 1;
    return `+3712${String(this.salt * 10_000 + this.phoneCounter).padStart(7, '0')}`;
  }

  guestIp(n: number): string {
    return `10.${this.salt}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
  }

  async startUp(template: Template) {
    this.template = template;
    const created = await createDatabase(`tipcard_sim_${Date.now()}_${process.pid}_${this.salt}`, template.name);
    this.dropDatabase = created.drop;
    this.jwtSecret = template.jwtSecret;
    this.env = clusterEnv(created.url, template.jwtSecret, {
      // Fees earn referral rewards; the default REFUND_APPROVAL_CENTS is what the simulator's amounts straddle.
      FEE_PERCENT: '5',
      REFUND_APPROVAL_CENTS: String(this.refundApprovalCents),
      // Limits are test:cluster's subject; here they would only refuse a long run's steps (and the checkout counter
      // is one key in the shared Redis).
      RATE_LIMITS: 'off',
    });
    this.pool = new pg.Pool({ connectionString: created.url, max: 4 });
    this.database = await openDatabase({ databaseUrl: created.url });
    for (const instance of [...this.servers, ...this.workers]) start(instance, this.env, this.logs);
    await Promise.all(this.servers.map((server) => untilReady(server, this.logs, 300_000)));
    for (const operator of template.operators) this.operators.push(await this.enrol(operator));
  }

  /**
   * A fresh start for a replay without starting the processes again (a replay costs seconds, not a cluster's start):
   * every table brought back to the template's rows, the model emptied, new addresses and phones, the operators
   * enrolled again. The servers and workers keep no state of their own between requests but caches keyed by ids,
   * which a new database never repeats.
   */
  async reset() {
    await this.restarting?.catch(() => undefined);
    this.restarting = undefined;
    for (const list of [
      this.users,
      this.teams,
      this.venues,
      this.payments,
      this.orders,
      this.invoices,
      this.payouts,
      this.operators,
    ])
      list.length = 0;
    this.failures.clear();
    this.ending = false;
    Object.assign(this.clientFigures, newClientFigures());
    Object.assign(this.figures, { steps: 0, actions: {}, skipped: {}, kills: 0, invariantChecks: 0, actionErrors: 0 });
    this.salt = newSalt();
    this.phoneCounter = 0;
    // TRUNCATE waits for every table's lock while the workers keep polling: a deadlock with one of them is retried.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.restoreTemplateRows();
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '40P01' || attempt === 10) throw error;
      }
    }
    for (const operator of this.template.operators) this.operators.push(await this.enrol(operator));
  }

  private async restoreTemplateRows() {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `TRUNCATE ${this.template.tables.map((table) => `"${table.name}"`).join(', ')} RESTART IDENTITY CASCADE`,
      );
      for (const table of this.template.tables) {
        if (table.rows.length === 0) continue;
        await client.query(
          `INSERT INTO "${table.name}" OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(null::"${table.name}", $1::json)`,
          [JSON.stringify(table.rows)],
        );
        for (const column of table.serials) {
          await client.query(`SELECT setval(pg_get_serial_sequence($1, $2), (SELECT max("${column}") FROM "${table.name}"))`, [
            `"${table.name}"`,
            column,
          ]);
        }
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }

  /** Enrols a template operator through the API (the template's token is unused in each copy) and signs it in. */
  private async enrol(operator: Template['operators'][number]): Promise<Operator> {
    const ip = this.guestIp(3_000 + this.operators.length);
    const info = await this.call(0, ip, 'GET', `/api/ops/enrolment/${operator.enrolmentToken}`);
    if (info.status !== 200) throw new Error(`operator enrolment: ${info.status} ${JSON.stringify(info.body)}`);
    const secret = info.body.data.secret as string;
    const step = totpStep(new Date());
    const enrolled = await this.call(0, ip, 'POST', `/api/ops/enrolment/${operator.enrolmentToken}`, {
      json: { password: OPERATOR_PASSWORD, code: totpCode(secret, step) },
    });
    if (enrolled.status !== 200) throw new Error(`operator enrolment: ${enrolled.status} ${JSON.stringify(enrolled.body)}`);
    // A code is good once: the next step's code (accepted one step early) signs in.
    const signedIn = await this.call(1, ip, 'POST', '/api/ops/sign-in', {
      json: { email: operator.email, password: OPERATOR_PASSWORD, code: totpCode(secret, step + 1) },
    });
    if (signedIn.status !== 200) throw new Error(`operator sign-in: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
    return { email: operator.email, token: signedIn.body.data.token, id: signedIn.body.data.operator.id };
  }

  /** kill -9 of one of the four processes and its restart; a server's restart is awaited before the next kill. */
  async kill(which: number) {
    await this.restarting;
    const instance = [...this.servers, ...this.workers][which % 4]!;
    kill9(instance);
    this.figures.kills += 1;
    start(instance, this.env, this.logs);
    this.restarting = instance.port ? untilReady(instance, this.logs, 300_000) : undefined;
    return instance.name;
  }

  async shutDown() {
    await this.restarting?.catch(() => undefined);
    await stopAll([...this.servers, ...this.workers]);
    await this.pool?.end().catch(() => undefined);
    await this.database?.close().catch(() => undefined);
    await this.dropDatabase?.();
  }
}

/**
 * The template every run copies: migrated once, with two admin operators created by `npm run ops:create-admin` (its
 * enrolment links printed), so a replay on a fresh database costs a copy, not a migration.
 */
export async function prepareTemplate(): Promise<Template & { drop: () => Promise<void> }> {
  const jwtSecret = `sim-${randomUUID()}-${randomUUID()}`;
  const template = await createDatabase(`tipcard_sim_template_${Date.now()}_${process.pid}`);
  const operators: Template['operators'] = [];
  try {
    for (const email of ['finance-a@sim.test', 'finance-b@sim.test']) {
      const output = await runCli(
        ['--import', 'tsx', 'apps/api/src/cli/ops-create-admin.ts', email],
        clusterEnv(template.url, jwtSecret),
      );
      const link = /https?:\/\/\S+/.exec(output)?.[0];
      if (!link) throw new Error(`ops:create-admin printed no enrolment link: ${output}`);
      operators.push({ email, enrolmentToken: link.split('/').pop()! });
    }
    const tables = await snapshot(template.url);
    return { name: template.name, jwtSecret, operators, tables, drop: template.drop };
  } catch (error) {
    await template.drop();
    throw error;
  }
}

async function snapshot(url: string): Promise<Template['tables']> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const names = (
      await client.query<{ name: string }>(
        `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
      )
    ).rows.map((row) => row.name);
    const serials = (
      await client.query<{ table_name: string; column_name: string }>(
        `select table_name, column_name from information_schema.columns where table_schema = 'public' and (is_identity = 'YES' or column_default like 'nextval(%')`,
      )
    ).rows;
    const tables: Template['tables'] = [];
    for (const name of names) {
      const rows = (await client.query<{ rows: unknown[] }>(`select coalesce(json_agg(t), '[]'::json) as rows from "${name}" t`))
        .rows[0]!.rows;
      tables.push({ name, rows, serials: serials.filter((row) => row.table_name === name).map((row) => row.column_name) });
    }
    return tables;
  } finally {
    await client.end();
  }
}

async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${args.join(' ')} exited ${code}: ${output}`))));
  });
}
