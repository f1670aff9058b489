import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { LOCKOUT_MS, MAX_FAILED_SIGN_INS } from './ops-auth.service.ts';
import { signInOperator } from './ops.test-support.ts';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/**
 * A software authenticator as a browser would drive it: a P-256 key pair per credential, an attestation of format
 * `none` in real CBOR with the public key as a COSE key, and assertions signed (ES256, DER) over authenticatorData and
 * the SHA-256 of clientDataJSON. Nothing is checked here: the server under test checks everything.
 */
class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  counter = 0;

  constructor(
    private readonly rpId: string,
    private readonly origin: string,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' });
    this.publicJwk = { x: jwk.x!, y: jwk.y! };
  }

  private authData(flags: number, attested?: Uint8Array, rpId = this.rpId) {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** `navigator.credentials.create()`'s answer, as @simplewebauthn/browser sends it. */
  register(challenge: string, { origin = this.origin, flags = UP | UV | AT } = {}) {
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(this.publicJwk.x, 'base64url')],
      [-3, Buffer.from(this.publicJwk.y, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, isoCBOR.encode(cose)]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', this.authData(flags, attested)],
      ]),
    );
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** `navigator.credentials.get()`'s answer; each one moves the counter on unless told which counter to use. */
  assert(challenge: string, { origin = this.origin, flags = UP | UV, counter = this.counter + 1 } = {}) {
    this.counter = counter;
    const authenticatorData = this.authData(flags);
    const clientDataJSON = this.clientData('webauthn.get', challenge, origin);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
    };
  }
}

describe('back office passkeys', () => {
  let t: TestApp;
  let origin: string;
  let rpId: string;
  beforeAll(async () => {
    t = await createTestApp();
    ({ origin, hostname: rpId } = new URL(t.app.config.publicUrl));
  });
  afterAll(() => t.close());

  const newAuthenticator = () => new SoftAuthenticator(rpId, origin);
  const registrationChallenge = async (token: string) => {
    const options = await t.call({ method: 'POST', url: '/api/ops/passkeys/options', token });
    expect(options.status).toBe(200);
    return options.body.data as { challenge: string; rp: { id: string }; authenticatorSelection: Record<string, string> };
  };
  const addPasskey = (token: string, response: object, name = 'YubiKey') =>
    t.call({ method: 'POST', url: '/api/ops/passkeys', token, payload: { name, response } });
  /** An operator signed in with password and code, with a passkey added. */
  async function operatorWithPasskey(role: 'support' | 'finance' | 'admin' = 'support') {
    const operator = await signInOperator(t, role);
    const authenticator = newAuthenticator();
    const added = await addPasskey(
      operator.opsToken,
      authenticator.register((await registrationChallenge(operator.opsToken)).challenge),
    );
    expect(added.status).toBe(201);
    return { ...operator, authenticator, passkeyId: added.body.data.id as string };
  }
  // Sign-in calls come from addresses of their own: the per-address limits (shared with the password sign-in) are for
  // one person's tries, and this file makes many.
  let addresses = 0;
  const remoteAddress = () => `10.1.${Math.floor(++addresses / 250)}.${addresses % 250}`;
  const signInChallenge = async () => {
    const options = await t.call({ method: 'POST', url: '/api/ops/sign-in/passkey/options', remoteAddress: remoteAddress() });
    expect(options.status).toBe(200);
    return options.body.data as { challenge: string; rpId: string; userVerification: string };
  };
  const passkeySignIn = (response: object) =>
    t.call({ method: 'POST', url: '/api/ops/sign-in/passkey', payload: { response }, remoteAddress: remoteAddress() });
  const auditOf = (action: string) => t.app.services.ops.listAudit({ action });

  it('adds a named passkey, lists it, and signs in with it alone to a working session', async () => {
    const operator = await signInOperator(t, 'finance');
    const options = await registrationChallenge(operator.opsToken);
    expect(options.rp.id).toBe(rpId);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const authenticator = newAuthenticator();
    const added = await addPasskey(operator.opsToken, authenticator.register(options.challenge), 'MacBook');
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ name: 'MacBook', last_used_at: null });
    // The same authenticator again: the next prompt excludes it, and the server refuses it.
    const again = await registrationChallenge(operator.opsToken);
    expect(again).toMatchObject({ excludeCredentials: [{ id: b64url(authenticator.credentialId) }] });
    expect((await addPasskey(operator.opsToken, authenticator.register(again.challenge))).body.code).toBe('ops_passkey_exists');

    const challenge = await signInChallenge();
    expect(challenge).toMatchObject({ rpId, userVerification: 'required' });
    const signedIn = await passkeySignIn(authenticator.assert(challenge.challenge));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.operator).toMatchObject({ id: operator.id, role: 'finance' });
    const me = await t.call({ method: 'GET', url: '/api/ops/me', token: signedIn.body.data.token });
    expect(me.body.data).toMatchObject({ id: operator.id, role: 'finance' });

    const listed = await t.call({ method: 'GET', url: '/api/ops/passkeys', token: operator.opsToken });
    expect(listed.body.data).toEqual([expect.objectContaining({ name: 'MacBook', last_used_at: expect.any(String) })]);
    expect((await auditOf('operator.passkey_add')).some((record) => record.subject_id === operator.id)).toBe(true);
    const signIns = (await auditOf('operator.sign_in')).filter((record) => record.subject_id === operator.id);
    expect(signIns.map((record) => record.after)).toContainEqual(expect.objectContaining({ method: 'passkey' }));
    // Neither the challenge nor the key nor the assertion is written anywhere but the passkey's own row.
    const audit = JSON.stringify(await t.app.services.ops.listAudit({ subjectId: operator.id }));
    expect(audit).not.toContain(challenge.challenge);
    expect(audit).not.toContain(b64url(authenticator.credentialId));
  });

  it('refuses a registration from another origin, without user verification, for another session or a spent challenge', async () => {
    const operator = await signInOperator(t, 'support');
    const other = await signInOperator(t, 'support');
    const authenticator = newAuthenticator();
    const refused = async (response: object, token = operator.opsToken) => {
      const answer = await addPasskey(token, response);
      expect(answer.status).toBe(422);
      expect(answer.body.code).toBe('ops_passkey_not_added');
    };
    await refused(
      authenticator.register((await registrationChallenge(operator.opsToken)).challenge, { origin: 'https://evil.example' }),
    );
    await refused(authenticator.register((await registrationChallenge(operator.opsToken)).challenge, { flags: UP | AT }));
    // A challenge handed to another operator's session.
    await refused(authenticator.register((await registrationChallenge(other.opsToken)).challenge));
    // A challenge never handed out.
    await refused(authenticator.register(b64url(randomBytes(32))));
    // A challenge answered once already.
    const { challenge } = await registrationChallenge(operator.opsToken);
    expect((await addPasskey(operator.opsToken, authenticator.register(challenge))).status).toBe(201);
    await refused(newAuthenticator().register(challenge));
    // A challenge past its five minutes.
    const late = await registrationChallenge(operator.opsToken);
    t.clock.advance(5 * 60_000 + 1);
    const stillIn = await signInOperator(t, 'support');
    await refused(newAuthenticator().register(late.challenge), stillIn.opsToken);
    await refused(newAuthenticator().register(late.challenge));
  });

  it('refuses a sign-in from another origin, without user verification, with an unknown, replayed or expired challenge', async () => {
    const { authenticator } = await operatorWithPasskey();
    const refused = async (response: object) => {
      const answer = await passkeySignIn(response);
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('ops_passkey_failed');
    };
    await refused(authenticator.assert((await signInChallenge()).challenge, { origin: 'https://evil.example' }));
    await refused(authenticator.assert((await signInChallenge()).challenge, { flags: UP }));
    await refused(authenticator.assert(b64url(randomBytes(32))));
    await refused(newAuthenticator().assert((await signInChallenge()).challenge));
    const good = authenticator.assert((await signInChallenge()).challenge);
    expect((await passkeySignIn(good)).status).toBe(200);
    await refused(good);
    const late = (await signInChallenge()).challenge;
    t.clock.advance(5 * 60_000 + 1);
    await refused(authenticator.assert(late));
    expect((await passkeySignIn(authenticator.assert((await signInChallenge()).challenge))).status).toBe(200);
  });

  it('refuses and audits a signature counter that goes backwards', async () => {
    const { id, authenticator } = await operatorWithPasskey();
    expect((await passkeySignIn(authenticator.assert((await signInChallenge()).challenge, { counter: 7 }))).status).toBe(200);
    const cloned = await passkeySignIn(authenticator.assert((await signInChallenge()).challenge, { counter: 7 }));
    expect(cloned.body.code).toBe('ops_passkey_failed');
    expect((await passkeySignIn(authenticator.assert((await signInChallenge()).challenge, { counter: 3 }))).status).toBe(403);
    const audited = (await auditOf('operator.passkey_counter_went_back')).filter((record) => record.subject_id === id);
    expect(audited.map((record) => record.after)).toEqual([{ counter: 3 }, { counter: 7 }]);
    expect((await passkeySignIn(authenticator.assert((await signInChallenge()).challenge, { counter: 8 }))).status).toBe(200);
  });

  it('counts failures in the sign-in lockout and refuses a disabled operator', async () => {
    const { id, authenticator } = await operatorWithPasskey();
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++)
      expect((await passkeySignIn(authenticator.assert((await signInChallenge()).challenge, { flags: UP }))).status).toBe(403);
    expect((await passkeySignIn(authenticator.assert((await signInChallenge()).challenge))).status).toBe(403);
    expect((await auditOf('operator.locked_out')).some((record) => record.subject_id === id)).toBe(true);
    t.clock.advance(LOCKOUT_MS);
    expect((await passkeySignIn(authenticator.assert((await signInChallenge()).challenge))).status).toBe(200);

    const admin = await signInOperator(t, 'admin');
    const disabled = await t.call({
      method: 'PATCH',
      url: `/api/ops/operators/${id}`,
      token: admin.opsToken,
      payload: { disabled: true },
    });
    expect(disabled.status).toBe(200);
    expect((await passkeySignIn(authenticator.assert((await signInChallenge()).challenge))).body.code).toBe('ops_passkey_failed');
  });

  it("removes only the operator's own passkey, ending their other sessions, and an admin's reset removes them all", async () => {
    const operator = await operatorWithPasskey();
    const stranger = await operatorWithPasskey();
    const remove = (token: string, passkeyId: string) =>
      t.call({ method: 'DELETE', url: `/api/ops/passkeys/${passkeyId}`, token });
    expect((await remove(operator.opsToken, stranger.passkeyId)).status).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/ops/passkeys', token: stranger.opsToken })).body.data).toHaveLength(1);

    const elsewhere = (await passkeySignIn(operator.authenticator.assert((await signInChallenge()).challenge))).body.data.token;
    expect((await remove(operator.opsToken, operator.passkeyId)).status).toBe(204);
    expect((await t.call({ method: 'GET', url: '/api/ops/me', token: operator.opsToken })).status).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/ops/me', token: elsewhere })).status).toBe(401);
    expect((await passkeySignIn(operator.authenticator.assert((await signInChallenge()).challenge))).status).toBe(403);
    expect((await auditOf('operator.passkey_remove')).some((record) => record.subject_id === operator.id)).toBe(true);

    const admin = await signInOperator(t, 'admin');
    const reset = await t.call({
      method: 'POST',
      url: `/api/ops/operators/${stranger.id}/reset-sign-in`,
      token: admin.opsToken,
    });
    expect(reset.status).toBe(200);
    expect((await passkeySignIn(stranger.authenticator.assert((await signInChallenge()).challenge))).status).toBe(403);
    const record = (await auditOf('operator.reset_sign_in')).find((entry) => entry.subject_id === stranger.id);
    expect(record?.before).toMatchObject({ passkeys: 1 });
  });
});
