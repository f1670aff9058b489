import { createStore } from '../../lib/create-store.ts';
import { useStore } from '../../lib/use-store.ts';

/** The sign-in state machine (spec 3/4): default → login_code (login) or verifying (registration) → default. */
export type AuthStep = 'default' | 'login_code' | 'verifying';

export interface AuthState {
  step: AuthStep;
  /** login_code: the username (phone in E.164); verifying: the registration uuid. */
  uid: string | null;
  /** The phone the code went to, for display. */
  phone: string | null;
  /** When a new code may be requested (epoch ms). */
  resendAt: number;
}

const initial: AuthState = { step: 'default', uid: null, phone: null, resendAt: 0 };

export const authStore = createStore<AuthState>(initial);

export function resetAuth(): void {
  authStore.set(initial);
}

export function startLoginCode(phone: string, waitSeconds: number): void {
  authStore.set({ step: 'login_code', uid: phone, phone, resendAt: Date.now() + waitSeconds * 1000 });
}

export function startVerifying(uuid: string, phone: string, waitSeconds: number): void {
  authStore.set({ step: 'verifying', uid: uuid, phone, resendAt: Date.now() + waitSeconds * 1000 });
}

export function setResendWait(waitSeconds: number): void {
  authStore.set({ resendAt: Date.now() + waitSeconds * 1000 });
}

export function useAuthState<S>(selector: (state: AuthState) => S): S {
  return useStore(authStore, selector);
}
