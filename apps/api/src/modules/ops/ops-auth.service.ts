import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import QRCode from 'qrcode';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccessTokenKeys } from '../auth/access-token.ts';
import {
  hashPassword,
  hashToken,
  isStrongPassword,
  matchTotp,
  newTotpSecret,
  otpauthUri,
  seal,
  unseal,
  verifyPassword,
} from './credentials.ts';
import { recordAudit, type Actor } from './ops-audit.ts';
import * as repo from './ops.repository.ts';

export const OPERATOR_ROLES = ['support', 'compliance', 'finance', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Operator tokens name this audience; the user API's tokens name another, so neither opens the other's routes. */
const ISSUER = 'tipcard';
export const OPS_AUDIENCE = 'tipcard-ops';
export const SESSION_IDLE_MS = 30 * 60_000;
/** However active, an operator signs in again after a working day. */
const SESSION_MAX_MS = 12 * 60 * 60_000;
export const MAX_FAILED_SIGN_INS = 5;
export const LOCKOUT_MS = 15 * 60_000;
const ENROLMENT_TTL_MS = 72 * 60 * 60_000;

export interface Operator {
  id: string;
  email: string;
  role: OperatorRole;
  sessionId: string;
}

export const publicOperator = (row: repo.OperatorRow) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  enrolled: row.enrolledAt !== null,
  locked_until: row.lockedUntil?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});

export type OpsAuthService = ReturnType<typeof createOpsAuthService>;

/** Operators: creation with a one-time enrolment link, enrolment (password + TOTP), sign-in, sessions. */
export function createOpsAuthService(deps: {
  db: Database;
  clock: Clock;
  keys: AccessTokenKeys;
  serverSecret: string;
  publicUrl: string;
}) {
  const { db, clock, keys, serverSecret } = deps;

  const enrolmentLink = (token: string) => `${deps.publicUrl}/ops/#/enrol/${token}`;

  async function liveEnrolment(token: string) {
    const row = await repo.findOperatorByEnrolmentToken(db, hashToken(token));
    if (!row || row.enrolledAt || !row.enrolmentExpiresAt || row.enrolmentExpiresAt <= clock.now())
      throw new AppError('ops_enrolment_invalid');
    return row;
  }

  /** Counts a failed try in its own statement, locking the operator out after the last allowed one. */
  async function failSignIn(operator: repo.OperatorRow, ip: string) {
    const now = clock.now();
    await db.transaction(async (tx) => {
      const fresh = (await repo.findOperatorForUpdate(tx, operator.id))!;
      const failed = fresh.failedAttempts + 1;
      const lock = failed >= MAX_FAILED_SIGN_INS;
      await repo.updateOperator(tx, fresh.id, {
        failedAttempts: lock ? 0 : failed,
        ...(lock ? { lockedUntil: new Date(now.getTime() + LOCKOUT_MS) } : {}),
      });
      await recordAudit(
        tx,
        { actor: { operatorId: fresh.id, label: fresh.email }, ip },
        {
          action: lock ? 'operator.locked_out' : 'operator.sign_in_failed',
          subjectType: 'operator',
          subjectId: fresh.id,
          before: null,
          after: { failed_attempts: failed },
        },
      );
    });
  }

  return {
    /** A new operator (admin's screen, or `npm run ops:create-admin`); answers the one-time enrolment link. */
    async createOperator(input: { email: string; role: OperatorRole }, audit: { actor: Actor; ip: string | null }) {
      const token = randomBytes(32).toString('base64url');
      const email = input.email.trim().toLowerCase();
      try {
        const row = await db.transaction(async (tx) => {
          const created = await repo.insertOperator(tx, {
            email,
            role: input.role,
            totpSecretSealed: seal(serverSecret, newTotpSecret()),
            enrolmentTokenHash: hashToken(token),
            enrolmentExpiresAt: new Date(clock.now().getTime() + ENROLMENT_TTL_MS),
          });
          await recordAudit(tx, audit, {
            action: 'operator.create',
            subjectType: 'operator',
            subjectId: created.id,
            before: null,
            after: { email, role: input.role },
          });
          return created;
        });
        return { operator: publicOperator(row), enrolment_url: enrolmentLink(token) };
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('operator_exists');
        throw error;
      }
    },

    async listOperators() {
      return (await repo.listOperators(db)).map(publicOperator);
    },

    /** What the enrolment page shows: the e-mail and the TOTP secret as a QR code and as text. */
    async enrolmentInfo(token: string) {
      const row = await liveEnrolment(token);
      const secret = unseal(serverSecret, row.totpSecretSealed);
      const uri = otpauthUri(secret, row.email);
      return { email: row.email, secret, otpauth_url: uri, qr_svg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
    },

    /** Sets the password and proves the authenticator works with one code; the link dies with it. */
    async enrol(token: string, input: { password: string; code: string }, ip: string | null) {
      const row = await liveEnrolment(token);
      if (!isStrongPassword(input.password)) throw AppError.field('weak_password', 'password');
      const step = matchTotp(unseal(serverSecret, row.totpSecretSealed), input.code, clock.now());
      if (step === undefined) throw AppError.field('ops_wrong_code', 'code');
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        const fresh = await repo.findOperatorForUpdate(tx, row.id);
        if (!fresh || fresh.enrolledAt) throw new AppError('ops_enrolment_invalid');
        await repo.updateOperator(tx, row.id, {
          passwordHash,
          totpLastStep: step,
          enrolledAt: clock.now(),
          enrolmentTokenHash: null,
          enrolmentExpiresAt: null,
        });
        await recordAudit(
          tx,
          { actor: { operatorId: row.id, label: row.email }, ip },
          { action: 'operator.enrol', subjectType: 'operator', subjectId: row.id, before: null, after: { enrolled: true } },
        );
      });
      return { email: row.email };
    },

    /**
     * E-mail, password and a TOTP code, all checked before answering one way for any wrong part. A code of a step
     * already used is refused (replay); five failures lock the operator out for 15 minutes.
     */
    async signIn(input: { email: string; password: string; code: string }, ip: string) {
      const now = clock.now();
      const row = await repo.findOperatorByEmail(db, input.email.trim().toLowerCase());
      if (!row || !row.passwordHash || row.disabledAt) {
        // The same work as a real check, so the answer's timing does not tell which e-mails exist.
        await verifyPassword('scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', input.password);
        throw new AppError('ops_sign_in_failed');
      }
      if (row.lockedUntil && row.lockedUntil > now) throw new AppError('ops_locked_out');
      const passwordOk = await verifyPassword(row.passwordHash, input.password);
      const step = matchTotp(unseal(serverSecret, row.totpSecretSealed), input.code, now);
      const replayed = step !== undefined && row.totpLastStep !== null && step <= row.totpLastStep;
      if (!passwordOk || step === undefined || replayed) {
        await failSignIn(row, ip);
        throw new AppError('ops_sign_in_failed');
      }
      const session = await db.transaction(async (tx) => {
        const fresh = (await repo.findOperatorForUpdate(tx, row.id))!;
        // Two sign-ins racing with one code: only the first takes the step.
        if (fresh.totpLastStep !== null && step <= fresh.totpLastStep) return undefined;
        await repo.updateOperator(tx, row.id, { totpLastStep: step, failedAttempts: 0, lockedUntil: null });
        const created = await repo.insertSession(tx, {
          operatorId: row.id,
          lastSeenAt: now,
          expiresAt: new Date(now.getTime() + SESSION_MAX_MS),
        });
        await recordAudit(
          tx,
          { actor: { operatorId: row.id, label: row.email }, ip },
          {
            action: 'operator.sign_in',
            subjectType: 'operator',
            subjectId: row.id,
            before: null,
            after: { session: created.id },
          },
        );
        return created;
      });
      if (!session) throw new AppError('ops_sign_in_failed');
      const issuedAt = Math.floor(now.getTime() / 1000);
      const token = await new SignJWT({ role: row.role })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(session.id)
        .setIssuer(ISSUER)
        .setAudience(OPS_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(Math.floor(session.expiresAt.getTime() / 1000))
        .sign(keys.secret);
      return { token, operator: publicOperator(row), idle_timeout_seconds: SESSION_IDLE_MS / 1000 };
    },

    /** The operator of a bearer token, or null: a valid signature is not enough, the session must be alive. */
    async authenticate(token: string): Promise<Operator | null> {
      const now = clock.now();
      let sessionId: string | undefined;
      try {
        const { payload } = await jwtVerify(token, keys.secret, {
          issuer: ISSUER,
          audience: OPS_AUDIENCE,
          algorithms: ['HS256'],
          currentDate: now,
        });
        sessionId = payload.sub;
      } catch {
        return null;
      }
      if (!sessionId || !/^[0-9a-f-]{36}$/i.test(sessionId)) return null;
      const session = await repo.touchLiveSession(db, sessionId, now, new Date(now.getTime() - SESSION_IDLE_MS));
      if (!session) return null;
      const row = await repo.findOperatorById(db, session.operatorId);
      if (!row || row.disabledAt) return null;
      return { id: row.id, email: row.email, role: row.role, sessionId: session.id };
    },

    async signOut(operator: Operator) {
      await repo.endSession(db, operator.sessionId, clock.now());
    },
  };
}
