import type { PaymentStatus, PublicPayment } from '@tipcard/shared/payments/schemas';

/** How often the return page asks for the payment, and how long it waits before saying 'Timeout reached!'. */
export const POLL_INTERVAL_MS = 1_000;
export const POLL_TIMEOUT_MS = 30_000;

export type ResultPhase = 'checking' | 'succeeded' | 'failed' | 'canceled' | 'timeout';

export interface ResultState {
  phase: ResultPhase;
  /** When a still-pending payment turns into the timeout state. */
  deadline: number;
  /** The last answer, so the outcome pages know the card and the amount. */
  payment: PublicPayment | null;
}

export type ResultEvent =
  /** An answer from GET /api/public/payments/{id}. */
  | { type: 'status'; payment: PublicPayment; now: number }
  /** The payment does not exist (404) or the URL names none: nothing to wait for. */
  | { type: 'not_found' }
  /** No answer (offline, 5xx, 429): keep asking until the deadline, a poor connection is not a failed payment. */
  | { type: 'error'; now: number }
  /** The guest asks once more after a timeout: a fresh waiting period. */
  | { type: 'check_again'; now: number };

export function initialResultState(now: number): ResultState {
  return { phase: 'checking', deadline: now + POLL_TIMEOUT_MS, payment: null };
}

/** A refunded payment did go through the provider but is no tip any more: the guest sees the failure state. */
const PHASE_OF_STATUS: Record<PaymentStatus, ResultPhase | null> = {
  pending: null,
  succeeded: 'succeeded',
  failed: 'failed',
  canceled: 'canceled',
  refunded: 'failed',
};

export function isFinal(phase: ResultPhase): boolean {
  return phase !== 'checking';
}

/**
 * The return page's state machine: checking → succeeded | failed | canceled, or → timeout once the deadline
 * passes with the payment still pending (or unreachable); timeout → checking again on request. A final outcome
 * is never overwritten by a late answer.
 */
export function resultReducer(state: ResultState, event: ResultEvent): ResultState {
  if (event.type === 'check_again') {
    return state.phase === 'timeout' ? { ...state, phase: 'checking', deadline: event.now + POLL_TIMEOUT_MS } : state;
  }
  if (state.phase !== 'checking') return state;
  switch (event.type) {
    case 'status': {
      const phase = PHASE_OF_STATUS[event.payment.status] ?? (event.now >= state.deadline ? 'timeout' : 'checking');
      return { ...state, phase, payment: event.payment };
    }
    case 'not_found':
      return { ...state, phase: 'failed' };
    case 'error':
      return event.now >= state.deadline ? { ...state, phase: 'timeout' } : state;
  }
}
