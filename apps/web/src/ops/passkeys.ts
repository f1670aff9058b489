import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { passkeyOptions, passkeySchema, signInAnswer } from '@tipcard/shared/ops/schemas';
import { errorText, OpsApiError, opsPost } from './ops-api.ts';

/**
 * Passkeys in the back office (decision 0050): the browser's prompt between two API calls, a challenge first and the
 * signed answer after. The options are the API's, passed to the prompt as they came.
 */

/** Makes a passkey for the signed-in operator and adds it under `name`. */
export async function addPasskey(name: string) {
  const options = await opsPost(passkeyOptions, '/passkeys/options');
  const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  return opsPost(passkeySchema, '/passkeys', { name, response });
}

/** Signs in with a passkey the operator picks in the browser's prompt; answers as the password sign-in does. */
export async function signInWithPasskey() {
  const options = await opsPost(passkeyOptions, '/sign-in/passkey/options');
  const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
  return opsPost(signInAnswer, '/sign-in/passkey', { response });
}

/** What went wrong with a passkey, for an operator: the API's words, or what the browser's prompt said. */
export function passkeyErrorText(error: unknown): string {
  if (error instanceof OpsApiError) return errorText(error);
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return 'This passkey is already added.';
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
    return 'The passkey prompt was closed or timed out. Nothing changed: try again when ready.';
  if (error instanceof TypeError) return errorText(error);
  return 'This browser could not use a passkey here. Try again, or use another browser or device.';
}
