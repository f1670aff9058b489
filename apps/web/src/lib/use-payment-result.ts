import { useEffect, useReducer } from 'react';
import { fetchPublicPayment, PublicApiError } from './guest-api.ts';
import { initialResultState, isFinal, POLL_INTERVAL_MS, resultReducer, type ResultState } from './payment-result.ts';

/**
 * Polls GET /api/public/payments/{id} every second until the payment is final or the deadline passes; the provider's
 * webhook usually lands within a second or two of the guest's return. `checkAgain` restarts after a timeout.
 */
export function usePaymentResult(paymentId: string | null): { state: ResultState; checkAgain: () => void } {
  const [state, dispatch] = useReducer(resultReducer, undefined, () =>
    paymentId ? initialResultState(Date.now()) : resultReducer(initialResultState(Date.now()), { type: 'not_found' }),
  );
  const { phase, deadline } = state;

  useEffect(() => {
    if (!paymentId || isFinal(phase)) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const payment = await fetchPublicPayment(paymentId, controller.signal);
        dispatch({ type: 'status', payment, now: Date.now() });
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof PublicApiError && error.status === 404) dispatch({ type: 'not_found' });
        else dispatch({ type: 'error', now: Date.now() });
      }
      // The next round is scheduled whatever the answer; the effect's cleanup stops it once the phase is final.
      if (!controller.signal.aborted) timer = setTimeout(() => void poll(), POLL_INTERVAL_MS);
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // `deadline` restarts the loop after "check again" even though the phase goes timeout → checking.
  }, [paymentId, phase, deadline]);

  return { state, checkAgain: () => dispatch({ type: 'check_again', now: Date.now() }) };
}
