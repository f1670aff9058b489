import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { SignJWT } from 'jose';
import QRCode from 'qrcode';
import { isUuid } from '@tipcard/shared/uuid';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { verifyUnderKeys, type AccessTokenKeys } from '../auth/auth.service.ts';
import type { MessagingService } from '../messaging/messaging.service.ts';
import {
  hashPassword,
  hashToken,
  isStrongPassword,
  matchTotp,
  newTotpSecret,
  otpauthUri,
  seal,
  unsealUnderAny,
  verifyPassword,
} from './credentials.ts';
import { recordAudit, type Actor, type AuditContext } from './ops-audit.ts';
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
/** Who made the first admin: the set-up link, in the audit log. */
const SETUP_ACTOR: Actor = { operatorId: null, label: 'setup link' };
/** How long a passkey challenge may be answered (the browser's prompt gets the same time). */
const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** A well-formed hash no password matches: checked against when there is no password to check, for the same work. */
const UNUSABLE_PASSWORD_HASH = 'scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

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
  disabled: row.disabledAt !== null,
  locked_until: row.lockedUntil?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});

export const publicPasskey = (row: repo.PasskeyRow) => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * A signature counter that did not move forward: refused, as the sign of a cloned authenticator. Authenticators that
 * keep no counter answer 0 each time, which stays allowed while the stored counter is 0 too.
 */
export const counterWentBack = (stored: number, received: number) => (received > 0 || stored > 0) && received <= stored;

export type OpsAuthService = ReturnType<typeof createOpsAuthService>;

/**
 * Operators: the first admin by the set-up link, invitation with a one-time enrolment link (e-mailed), enrolment
 * (password + TOTP), sign-in, sessions, and the admin's changes (role, disable, reset), each audited.
 */
export function createOpsAuthService(deps: {
  db: Database;
  clock: Clock;
  keys: AccessTokenKeys;
  /** JWT_SECRET: seals the operators' TOTP secrets. */
  serverSecret: string;
  /** JWT_SECRET_PREVIOUS during a rotation: secrets it sealed still open, and `resealOne` moves them to the current. */
  previousServerSecret: string | undefined;
  publicUrl: string;
  messages: Pick<MessagingService, 'enqueueEmail'>;
}) {
  const { db, clock, keys, serverSecret, previousServerSecret } = deps;
  /** The relying party of passkeys: PUBLIC_URL's host name, and its origin the only one a browser may answer from. */
  const { hostname: rpId, origin } = new URL(deps.publicUrl);
  const openSealed = (sealed: string) => unsealUnderAny([serverSecret, previousServerSecret], sealed).plain;

  const enrolmentLink = (token: string) => `${deps.publicUrl}/ops/#/enrol/${token}`;
  /**
   * The first admin's set-up token: derived from the server secret, so every instance prints the same link and nothing
   * is stored; it opens only while no operator exists (operators are disabled, never deleted), so it works once.
   */
  const setupToken = createHmac('sha256', serverSecret).update('tipcard ops first-admin set-up').digest('base64url');
  const isSetupToken = (token: string) =>
    token.length === setupToken.length && timingSafeEqual(Buffer.from(token), Buffer.from(setupToken));

  /**
   * A new enrolment (invitation or reset): a one-time link and the columns that go with it, a fresh TOTP secret and no
   * password, written by the caller with the rest of its change.
   */
  function freshEnrolment() {
    const token = randomBytes(32).toString('base64url');
    const columns = {
      passwordHash: null,
      totpSecretSealed: seal(serverSecret, newTotpSecret()),
      totpLastStep: null,
      enrolmentTokenHash: hashToken(token),
      enrolmentExpiresAt: new Date(clock.now().getTime() + ENROLMENT_TTL_MS),
      enrolledAt: null,
      failedAttempts: 0,
      lockedUntil: null,
    };
    return { link: enrolmentLink(token), columns };
  }

  /** E-mails the enrolment link through the outbox, in the caller's transaction; answers it for the admin's screen. */
  async function sendEnrolment(tx: Executor, row: repo.OperatorRow, link: string, reason: 'invite' | 'reset') {
    await deps.messages.enqueueEmail(tx, {
      to: row.email,
      subject: reason === 'invite' ? 'Your Tipcard back-office account' : 'Set up your Tipcard back-office sign-in again',
      text: [
        reason === 'invite'
          ? `You have been given a ${row.role} account in the Tipcard back office.`
          : 'Your password and authenticator app for the Tipcard back office were reset by an admin.',
        '',
        `Open this link within 72 hours to set a password and enrol your authenticator app (it works once):`,
        link,
        '',
        'If you did not expect this, tell your Tipcard admin.',
      ].join('\n'),
    });
    return { operator: publicOperator(row), enrolment_url: link };
  }

  async function createInTransaction(
    tx: Executor,
    input: { email: string; role: OperatorRole },
    audit: { actor: Actor; ip: string | null },
  ) {
    const email = input.email.trim().toLowerCase();
    const { link, columns } = freshEnrolment();
    const created = await repo.insertOperator(tx, { email, role: input.role, ...columns });
    await recordAudit(tx, audit, {
      action: 'operator.create',
      subjectType: 'operator',
      subjectId: created.id,
      before: null,
      after: { email, role: input.role },
    });
    return sendEnrolment(tx, created, link, 'invite');
  }

  async function liveEnrolment(token: string) {
    const row = await repo.findOperatorByEnrolmentToken(db, hashToken(token));
    if (!row || row.enrolledAt || !row.enrolmentExpiresAt || row.enrolmentExpiresAt <= clock.now())
      throw new AppError('ops_enrolment_invalid');
    return row;
  }

  /**
   * Takes one sign-in attempt before any password is looked at: the operator's row is locked for the count, so
   * attempts racing on any instance are numbered one by one and at most MAX_FAILED_SIGN_INS of them are evaluated.
   * The last one allowed starts the lockout (a crash after it cannot leave a count that never ends); a successful
   * sign-in lifts it. Answers undefined for no usable operator, attempt undefined while locked out. A passkey's
   * attempts count in the same lockout as the password's.
   */
  async function takeAttempt(find: { email: string } | { id: string }, now: Date) {
    return db.transaction(async (tx) => {
      const row =
        'email' in find ? await repo.findOperatorByEmailForUpdate(tx, find.email) : await repo.findOperatorForUpdate(tx, find.id);
      if (!row?.passwordHash || row.disabledAt) return undefined;
      if (row.lockedUntil && row.lockedUntil > now) return { row, passwordHash: row.passwordHash, attempt: undefined };
      // A lockout that has ended starts the count again.
      const attempt = (row.lockedUntil ? 0 : row.failedAttempts) + 1;
      await repo.updateOperator(tx, row.id, {
        failedAttempts: attempt,
        lockedUntil: attempt >= MAX_FAILED_SIGN_INS ? new Date(now.getTime() + LOCKOUT_MS) : null,
      });
      return { row, passwordHash: row.passwordHash, attempt };
    });
  }

  /** A failed sign-in of a known operator, in the audit log (the last one allowed starts the lockout). */
  async function auditFailedSignIn(row: repo.OperatorRow, attempt: number, ip: string, method: 'password' | 'passkey') {
    await recordAudit(
      db,
      { actor: { operatorId: row.id, label: row.email }, ip },
      {
        action: attempt >= MAX_FAILED_SIGN_INS ? 'operator.locked_out' : 'operator.sign_in_failed',
        subjectType: 'operator',
        subjectId: row.id,
        before: null,
        after: method === 'password' ? { failed_attempts: attempt } : { failed_attempts: attempt, method },
      },
    );
  }

  /** A new session, in the caller's transaction that also lifts the failed-attempt count; audited. */
  async function openSession(tx: Executor, row: repo.OperatorRow, now: Date, ip: string, method: 'password' | 'passkey') {
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
        after: method === 'password' ? { session: created.id } : { session: created.id, method },
      },
    );
    return created;
  }

  /** The sign-in's answer: a token naming the session, whichever way the operator signed in. */
  async function signedIn(row: repo.OperatorRow, session: repo.OperatorSessionRow, now: Date) {
    const token = await new SignJWT({ role: row.role })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(session.id)
      .setIssuer(ISSUER)
      .setAudience(OPS_AUDIENCE)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(session.expiresAt.getTime() / 1000))
      .sign(keys.secret);
    return { token, operator: publicOperator(row), idle_timeout_seconds: SESSION_IDLE_MS / 1000 };
  }

  /** A challenge handed out now, stored by its hash for five minutes. */
  async function storeChallenge(challenge: string, purpose: 'register' | 'sign_in', sessionId: string | null) {
    const now = clock.now();
    await repo.insertPasskeyChallenge(
      db,
      {
        challengeHash: hashToken(challenge),
        purpose,
        sessionId,
        expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
      },
      now,
    );
  }
  /** The challenge check the verifications call: the challenge the browser signed is taken, once. */
  const takeChallenge = (purpose: 'register' | 'sign_in', sessionId: string | null) => (challenge: string) =>
    repo.takePasskeyChallenge(db, hashToken(challenge), purpose, sessionId, clock.now());

  return {
    /** A new operator (admin's screen, or `npm run ops:create-admin`), invited by e-mail; answers the enrolment link. */
    async createOperator(input: { email: string; role: OperatorRole }, audit: AuditContext) {
      try {
        return await db.transaction((tx) => createInTransaction(tx, input, audit));
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('operator_exists');
        throw error;
      }
    },

    /** The set-up link the server prints at start while no operator exists; null once one does. */
    async firstAdminSetupLink() {
      return (await repo.countOperators(db)) === 0 ? `${deps.publicUrl}/ops/#/setup/${setupToken}` : null;
    },

    /** Whether a set-up link still opens (the page asks before showing its form). */
    async checkSetup(token: string) {
      if (!isSetupToken(token) || (await repo.countOperators(db)) > 0) throw new AppError('ops_setup_invalid');
    },

    /**
     * The first admin, by the set-up link: only while no operator exists, checked under a lock so two people opening
     * the link at once make one admin. Answers the enrolment link the page continues to.
     */
    async setUpFirstAdmin(token: string, email: string, ip: string | null) {
      if (!isSetupToken(token)) throw new AppError('ops_setup_invalid');
      return db.transaction(async (tx) => {
        await repo.lockOperatorSetup(tx);
        if ((await repo.countOperators(tx)) > 0) throw new AppError('ops_setup_invalid');
        return createInTransaction(tx, { email, role: 'admin' }, { actor: SETUP_ACTOR, ip });
      });
    },

    /**
     * An admin changes another operator's role or disables / re-enables them. The back office always keeps one enabled
     * admin (the enabled admins are locked while counted, so two admins demoting each other at once cannot both
     * succeed). A change ends the operator's sessions: they sign in again with what they may now do.
     */
    async updateOperator(
      id: string,
      change: { role?: OperatorRole | undefined; disabled?: boolean | undefined },
      audit: AuditContext,
    ) {
      return db.transaction(async (tx) => {
        const activeAdmins = await repo.lockEnabledAdmins(tx);
        const row = await repo.findOperatorForUpdate(tx, id);
        if (!row) throw new AppError('not_found');
        const role = change.role ?? row.role;
        const disabled = change.disabled ?? row.disabledAt !== null;
        const wasActiveAdmin = row.role === 'admin' && row.disabledAt === null;
        if (wasActiveAdmin && (role !== 'admin' || disabled) && activeAdmins.length <= 1)
          throw new AppError('operator_last_admin');
        const now = clock.now();
        const updated = await repo.updateOperator(tx, id, {
          role,
          disabledAt: disabled ? (row.disabledAt ?? now) : null,
        });
        await repo.endSessionsOf(tx, id, now);
        await recordAudit(tx, audit, {
          action: 'operator.update',
          subjectType: 'operator',
          subjectId: id,
          before: { role: row.role, disabled: row.disabledAt !== null },
          after: { role, disabled },
        });
        return publicOperator(updated);
      });
    },

    /**
     * Password and authenticator reset by an admin (a lost phone, a leaked password): both are cleared with every
     * passkey, a new one-time enrolment link is e-mailed, and every session of the operator ends.
     */
    async resetSignIn(id: string, audit: AuditContext) {
      return db.transaction(async (tx) => {
        const row = await repo.findOperatorForUpdate(tx, id);
        if (!row) throw new AppError('not_found');
        await repo.endSessionsOf(tx, id, clock.now());
        const passkeys = await repo.deletePasskeysOf(tx, id);
        await recordAudit(tx, audit, {
          action: 'operator.reset_sign_in',
          subjectType: 'operator',
          subjectId: id,
          before: { enrolled: row.enrolledAt !== null, passkeys },
          after: { enrolled: false, passkeys: 0 },
        });
        const { link, columns } = freshEnrolment();
        return sendEnrolment(tx, await repo.updateOperator(tx, id, columns), link, 'reset');
      });
    },

    async listOperators() {
      return (await repo.listOperators(db)).map(publicOperator);
    },

    /** What the enrolment page shows: the e-mail and the TOTP secret as a QR code and as text. */
    async enrolmentInfo(token: string) {
      const row = await liveEnrolment(token);
      const secret = openSealed(row.totpSecretSealed);
      const uri = otpauthUri(secret, row.email);
      return { email: row.email, secret, otpauth_url: uri, qr_svg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
    },

    /** Sets the password and proves the authenticator works with one code; the link dies with it. */
    async enrol(token: string, input: { password: string; code: string }, ip: string | null) {
      const row = await liveEnrolment(token);
      if (!isStrongPassword(input.password)) throw AppError.field('weak_password', 'password');
      const step = matchTotp(openSealed(row.totpSecretSealed), input.code, clock.now());
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
     * already used is refused (replay). The attempt is counted before the password is checked, and five failures lock
     * the operator out for 15 minutes. An unknown e-mail, a wrong part and a lockout get the same answer after the
     * same scrypt work, so neither the answer nor its timing tells which e-mails are operators'.
     */
    async signIn(input: { email: string; password: string; code: string }, ip: string) {
      const now = clock.now();
      const taken = await takeAttempt({ email: input.email.trim().toLowerCase() }, now);
      if (!taken?.attempt) {
        await verifyPassword(UNUSABLE_PASSWORD_HASH, input.password);
        throw new AppError('ops_sign_in_failed');
      }
      const { row, passwordHash, attempt } = taken;
      const passwordOk = await verifyPassword(passwordHash, input.password);
      const step = matchTotp(openSealed(row.totpSecretSealed), input.code, now);
      const replayed = step !== undefined && row.totpLastStep !== null && step <= row.totpLastStep;
      if (!passwordOk || step === undefined || replayed) {
        await auditFailedSignIn(row, attempt, ip, 'password');
        // With the right password, a code already used says so: the operator waits for the next one, not retypes all.
        throw new AppError(passwordOk && replayed ? 'ops_code_used' : 'ops_sign_in_failed');
      }
      const session = await db.transaction(async (tx) => {
        const fresh = (await repo.findOperatorForUpdate(tx, row.id))!;
        // Two sign-ins racing with one code: only the first takes the step.
        if (fresh.totpLastStep !== null && step <= fresh.totpLastStep) return undefined;
        await repo.updateOperator(tx, row.id, { totpLastStep: step, failedAttempts: 0, lockedUntil: null });
        return openSession(tx, row, now, ip, 'password');
      });
      if (!session) throw new AppError('ops_code_used');
      return signedIn(row, session, now);
    },

    /** What the browser's passkey prompt for signing in needs: a fresh challenge, user verification required. */
    async passkeySignInOptions() {
      const options = await generateAuthenticationOptions({
        rpID: rpId,
        userVerification: 'required',
        timeout: PASSKEY_CHALLENGE_TTL_MS,
      });
      await storeChallenge(options.challenge, 'sign_in', null);
      return { ...options };
    },

    /**
     * A passkey with user verification signs in on its own (decision 0050: it is phishing-resistant multi-factor), to
     * the same session as password and code. The challenge is taken once; the signature, origin, relying party and user
     * verification are checked, then the counter must have moved forward (a counter that goes back is refused and
     * audited). A known passkey's failures count in its operator's sign-in lockout; every failure answers the same.
     */
    async passkeySignIn(response: AuthenticationResponseJSON, ip: string) {
      const now = clock.now();
      const passkey = await repo.findPasskeyByCredentialId(db, response.id);
      if (!passkey) throw new AppError('ops_passkey_failed');
      const taken = await takeAttempt({ id: passkey.operatorId }, now);
      if (!taken?.attempt) throw new AppError('ops_passkey_failed');
      const { row, attempt } = taken;
      // The library's own counter check comes before the signature's; ours comes after, so only a genuine signature
      // with a counter gone back is audited as one.
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: takeChallenge('sign_in', null),
        expectedOrigin: origin,
        expectedRPID: rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(passkey.publicKey),
          counter: 0,
          transports: passkey.transports,
        },
        requireUserVerification: true,
      }).catch(() => undefined);
      const newCounter = verification?.authenticationInfo.newCounter ?? 0;
      if (verification?.verified && counterWentBack(passkey.counter, newCounter)) {
        await recordAudit(
          db,
          { actor: { operatorId: row.id, label: row.email }, ip },
          {
            action: 'operator.passkey_counter_went_back',
            subjectType: 'operator',
            subjectId: row.id,
            before: { passkey: passkey.id, name: passkey.name, counter: passkey.counter },
            after: { counter: newCounter },
          },
        );
      }
      if (!verification?.verified || counterWentBack(passkey.counter, newCounter)) {
        await auditFailedSignIn(row, attempt, ip, 'passkey');
        throw new AppError('ops_passkey_failed');
      }
      const session = await db.transaction(async (tx) => {
        // Two sign-ins racing with the same passkey: the counter decides, under the passkey's lock.
        const fresh = await repo.findPasskeyForUpdate(tx, passkey.id);
        if (!fresh || counterWentBack(fresh.counter, newCounter)) return undefined;
        await repo.updatePasskey(tx, passkey.id, { counter: newCounter, lastUsedAt: now });
        await repo.updateOperator(tx, row.id, { failedAttempts: 0, lockedUntil: null });
        return openSession(tx, row, now, ip, 'passkey');
      });
      if (!session) throw new AppError('ops_passkey_failed');
      return signedIn(row, session, now);
    },

    async listPasskeys(operator: Operator) {
      return (await repo.listPasskeysOf(db, operator.id)).map(publicPasskey);
    },

    /**
     * What the browser's prompt for a new passkey needs: a challenge bound to this session, a discoverable credential
     * with user verification (it signs in without an e-mail), and the operator's passkeys already added excluded.
     */
    async passkeyRegistrationOptions(operator: Operator) {
      const existing = await repo.listPasskeysOf(db, operator.id);
      const options = await generateRegistrationOptions({
        rpName: 'Tipcard Ops',
        rpID: rpId,
        userName: operator.email,
        userID: new TextEncoder().encode(operator.id),
        timeout: PASSKEY_CHALLENGE_TTL_MS,
        attestationType: 'none',
        excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      await storeChallenge(options.challenge, 'register', operator.sessionId);
      return { ...options };
    },

    /** Adds the passkey the browser made for this session's challenge, named by the operator; audited. */
    async addPasskey(operator: Operator, input: { name: string; response: RegistrationResponseJSON }, audit: AuditContext) {
      const verification = await verifyRegistrationResponse({
        response: input.response,
        expectedChallenge: takeChallenge('register', operator.sessionId),
        expectedOrigin: origin,
        expectedRPID: rpId,
        requireUserVerification: true,
      }).catch(() => undefined);
      if (!verification?.verified) throw new AppError('ops_passkey_not_added');
      const { credential } = verification.registrationInfo;
      try {
        return await db.transaction(async (tx) => {
          const row = await repo.insertPasskey(tx, {
            operatorId: operator.id,
            credentialId: credential.id,
            publicKey: credential.publicKey,
            counter: credential.counter,
            transports: credential.transports ?? [],
            name: input.name,
          });
          await recordAudit(tx, audit, {
            action: 'operator.passkey_add',
            subjectType: 'operator',
            subjectId: operator.id,
            before: null,
            after: { passkey: row.id, name: row.name },
          });
          return publicPasskey(row);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('ops_passkey_exists');
        throw error;
      }
    },

    /** Removes one of the operator's own passkeys (another's answers 404); their other sessions end. Audited. */
    async removePasskey(operator: Operator, id: string, audit: AuditContext) {
      await db.transaction(async (tx) => {
        const removed = await repo.deletePasskeyOf(tx, operator.id, id);
        if (!removed) throw new AppError('not_found');
        await repo.endOtherSessionsOf(tx, operator.id, operator.sessionId, clock.now());
        await recordAudit(tx, audit, {
          action: 'operator.passkey_remove',
          subjectType: 'operator',
          subjectId: operator.id,
          before: { passkey: removed.id, name: removed.name },
          after: null,
        });
      });
    },

    /** The operator of a bearer token, or null: a valid signature is not enough, the session must be alive. */
    async authenticate(token: string): Promise<Operator | null> {
      const now = clock.now();
      let sessionId: string | undefined;
      try {
        const { payload } = await verifyUnderKeys(token, keys, {
          issuer: ISSUER,
          audience: OPS_AUDIENCE,
          algorithms: ['HS256'],
          currentDate: now,
        });
        sessionId = payload.sub;
      } catch {
        return null;
      }
      if (!sessionId || !isUuid(sessionId)) return null;
      const session = await repo.touchLiveSession(db, sessionId, now, new Date(now.getTime() - SESSION_IDLE_MS));
      if (!session) return null;
      const row = await repo.findOperatorById(db, session.operatorId);
      if (!row || row.disabledAt) return null;
      return { id: row.id, email: row.email, role: row.role, sessionId: session.id };
    },

    /**
     * The `ops.reseal` job's step during a JWT secret rotation: one operator's TOTP secret still sealed under
     * JWT_SECRET_PREVIOUS is sealed again under JWT_SECRET, so removing the previous secret locks no one out. Only the
     * row as it was read is replaced, so an enrolment at the same moment is never overwritten. Operators are few; the
     * scan reads them all.
     */
    async resealOne(): Promise<boolean> {
      if (!previousServerSecret) return false;
      for (const row of await repo.listSealedTotpSecrets(db)) {
        const opened = unsealUnderAny([serverSecret, previousServerSecret], row.totpSecretSealed);
        if (opened.serverSecret === serverSecret) continue;
        await repo.replaceSealedTotpSecret(db, row.id, row.totpSecretSealed, seal(serverSecret, opened.plain));
        return true;
      }
      return false;
    },

    async signOut(operator: Operator) {
      await repo.endSession(db, operator.sessionId, clock.now());
    },
  };
}
