import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

interface TurnstileApi {
  render(element: HTMLElement, options: Record<string, unknown>): string;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

const SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
let scriptLoading: Promise<TurnstileApi> | null = null;

/** Loads Cloudflare's widget script once, only on pages that show the check. */
function loadTurnstile(): Promise<TurnstileApi> {
  scriptLoading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('turnstile did not load')));
    script.onerror = () => {
      scriptLoading = null;
      reject(new Error('turnstile did not load'));
    };
    document.head.append(script);
  });
  return scriptLoading;
}

/**
 * The anti-bot widget (Turnstile-compatible), shown only when the server gave a site key. It reports a token, or
 * null when the token expires; the form sends it as `turnstile_token` (or the `cf-turnstile-response` header).
 */
export function HumanCheck({ siteKey, onToken }: { siteKey: string; onToken: (token: string | null) => void }) {
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const onTokenRef = useRef(onToken);
  useEffect(() => {
    onTokenRef.current = onToken;
  });

  useEffect(() => {
    let widgetId: string | undefined;
    let cancelled = false;
    loadTurnstile()
      .then((turnstile) => {
        if (cancelled || !ref.current) return;
        widgetId = turnstile.render(ref.current, {
          sitekey: siteKey,
          language: i18n.language,
          callback: (token: string) => onTokenRef.current(token),
          'expired-callback': () => onTokenRef.current(null),
          'error-callback': () => onTokenRef.current(null),
        });
      })
      .catch(() => onTokenRef.current(null));
    return () => {
      cancelled = true;
      if (widgetId) window.turnstile?.remove(widgetId);
    };
  }, [siteKey, i18n.language]);

  return <div ref={ref} role="group" aria-label={t('human_check.label')} className="min-h-[65px]" />;
}
