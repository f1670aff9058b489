import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useMe } from '../../app/session/use-me.ts';
import { openModal } from '../../lib/ui-store.ts';
import { useVerification } from './api/use-verification.ts';

const REMINDED_KEY = 'verification:reminded';

function alreadyReminded(): boolean {
  try {
    return sessionStorage.getItem(REMINDED_KEY) === '1';
  } catch {
    return false;
  }
}

function markReminded(): void {
  try {
    sessionStorage.setItem(REMINDED_KEY, '1');
  } catch {
    // Storage refused (private mode): the modal may show again on the next page load, which is harmless.
  }
}

/**
 * Opens the verification modal once per browser session when /me says verification is required (spec 4), unless
 * the user is on the verification page already or has sent a request that waits for review. Answers whether
 * verification is required, for the side bar's alert icon.
 */
export function useVerificationReminder(): boolean {
  const required = useMe().data?.verification_required ?? false;
  const { pathname } = useLocation();
  const onPage = /(^|\/)verification$/.test(pathname);
  const status = useVerification(required).data?.status;
  const due = required && !onPage && status !== undefined && status !== 'pending' && status !== 'approved';

  useEffect(() => {
    if (!due || alreadyReminded()) return;
    // After this render's effects: the root layout closes every modal on route change, and must not close this one.
    const timer = setTimeout(() => {
      markReminded();
      openModal('verification');
    }, 0);
    return () => clearTimeout(timer);
  }, [due]);

  return required;
}
