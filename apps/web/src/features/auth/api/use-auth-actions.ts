import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { otpSentSchema, registrationSchema, tokensSchema, type Tokens } from '@tipcard/shared/auth/schemas';
import { OTP_RESEND_WAIT_SECONDS } from '@tipcard/shared/constants';
import { referralInviterSchema } from '@tipcard/shared/referrals/schemas';
import { api } from '../../../lib/api-client.ts';
import { clearTokens, getAccessToken, getRefreshToken, saveTokens } from '../../../lib/tokens.ts';
import { takeReturnPath } from '../../../lib/return-path.ts';
import { hideSnackbar, setLoading } from '../../../lib/ui-store.ts';
import { useLocalePath } from '../../../lib/use-locale-path.ts';
import { unsubscribeThisBrowser } from '../../../lib/push-device.ts';
import { meQueryKey, privateClientId } from '../../../app/session/use-me.ts';
import type { Me } from '@tipcard/shared/auth/me-schema';
import { resetAuth, setResendWait, startLoginCode, startVerifying } from '../auth-store.ts';

/** Auth calls map their errors themselves (spec 8 auth mapping), so the client shows nothing on its own. */
const AUTH = { errorHandling: 'none', auth: false } as const;

export const LOADING_CLEAR_DELAY_MS = 1000;

export function useRequestOtp() {
  return useMutation({
    mutationFn: (username: string) => api.post('/request-otp', { username }, otpSentSchema, AUTH),
    onSuccess: (data, username) => startLoginCode(username, data?.resend_after_seconds ?? OTP_RESEND_WAIT_SECONDS),
  });
}

export function useResendLoginCode() {
  return useMutation({
    mutationFn: (username: string) => api.post('/request-otp', { username }, otpSentSchema, AUTH),
    onSuccess: (data) => setResendWait(data?.resend_after_seconds ?? OTP_RESEND_WAIT_SECONDS),
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: {
      username: string;
      age_confirmed: true;
      terms_accepted: true;
      referral_code?: string;
      promo_source?: string;
    }) => api.post('/register', body, registrationSchema, AUTH),
    onSuccess: (data, body) => startVerifying(data.uuid, body.username, OTP_RESEND_WAIT_SECONDS),
  });
}

export function useResendRegistrationCode() {
  return useMutation({
    mutationFn: (uid: string) => api.post(`/register/${encodeURIComponent(uid)}/resend`, {}, otpSentSchema, AUTH),
    onSuccess: (data) => setResendWait(data?.resend_after_seconds ?? OTP_RESEND_WAIT_SECONDS),
  });
}

/** Saves the tokens, resets the state machine, goes to overview (or the page that sent the visitor) and clears the loading flag 1 s later. */
function useSignedIn() {
  const navigate = useNavigate();
  const to = useLocalePath();
  const queryClient = useQueryClient();
  return (tokens: Tokens) => {
    saveTokens(tokens);
    hideSnackbar();
    queryClient.clear();
    resetAuth();
    void navigate(to(takeReturnPath() ?? '/overview'), { replace: true });
    setTimeout(() => setLoading(false), LOADING_CLEAR_DELAY_MS);
  };
}

export function useLoginCheck() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (body: { username: string; password: string }) => api.post('/login_check', body, tokensSchema, AUTH),
    onMutate: () => setLoading(true),
    onSuccess: signedIn,
    onError: () => setLoading(false),
  });
}

export function useVerifyRegistration() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: ({ uid, code }: { uid: string; code: string }) =>
      api.post(`/register/${encodeURIComponent(uid)}/verify`, { code }, tokensSchema, AUTH),
    onMutate: () => setLoading(true),
    onSuccess: signedIn,
    onError: () => setLoading(false),
  });
}

/** POST /logout, clear both cookies and go to the site root, whatever the server answered. */
export function useLogout() {
  const navigate = useNavigate();
  const to = useLocalePath();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const refreshToken = getRefreshToken();
      const jwt = getAccessToken();
      // This browser's push notices were the user's: they stop with the session (decision 0046), before it ends.
      const clientId = privateClientId(queryClient.getQueryData<Me>(meQueryKey));
      if (clientId && jwt) {
        await unsubscribeThisBrowser((endpoint) =>
          api.delete(`/clients/${clientId}/push-subscriptions`, null, {
            ...AUTH,
            body: { endpoint },
            headers: { Authorization: `Bearer ${jwt}` },
          }),
        );
      }
      // No refresh-and-replay here: a dead session is signed out anyway.
      await api
        .post('/logout', refreshToken ? { refreshToken } : {}, null, {
          ...AUTH,
          headers: jwt ? { Authorization: `Bearer ${jwt}` } : {},
        })
        .catch(() => undefined);
    },
    onSettled: () => {
      clearTokens();
      resetAuth();
      queryClient.clear();
      // Committed at once, not as a transition: a navigation back to the signed-in page before the sign-out's page
      // was on screen would leave the router where it was, and nothing would render the guard again.
      void navigate(to('/'), { replace: true, flushSync: true });
    },
  });
}

/** Who invites the visitor of a referral link, by their public name; nothing for an unknown code (the page then says nothing). */
export function useReferralInviter(code: string | undefined) {
  return useQuery({
    queryKey: ['referral-inviter', code],
    queryFn: ({ signal }) =>
      api.get(`/public/referrals/${encodeURIComponent(code!)}`, referralInviterSchema, { ...AUTH, signal }),
    enabled: Boolean(code),
    staleTime: Infinity,
  });
}
