import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Smartphone } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { canSubscribe, currentPushSubscription, subscribeThisBrowser } from '../../../lib/push-device.ts';
import { forgetThisDevice, pushPublicKey, saveThisDevice } from '../api/use-push.ts';
import { PanelHeading } from './account-panels.tsx';

type State = 'checking' | 'unsupported' | 'denied' | 'off' | 'on';

/**
 * Settings → "Notifications on this device" (decision 0046): Web Push for this browser only, asked for by a click (the
 * browser's permission prompt needs one), revocable here; a blocked permission or a browser without push is said as
 * such, with what to do.
 */
export function PushPanel({ clientId }: { clientId: string | undefined }) {
  const { t } = useTranslation('settings');
  const [state, setState] = useState<State>('checking');
  const [problem, setProblem] = useState<'failed' | 'unavailable' | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!clientId) return;
    let current = true;
    void (async () => {
      const next: State = !(await canSubscribe())
        ? 'unsupported'
        : Notification.permission === 'denied'
          ? 'denied'
          : await (async () => {
              const subscription = await currentPushSubscription();
              if (!subscription) return 'off';
              // The browser's subscription is told to the server again: it may have been another user's before.
              return saveThisDevice(clientId, subscription).then(
                () => 'on' as const,
                () => 'off' as const,
              );
            })();
      if (current) setState(next);
    })();
    return () => {
      current = false;
    };
  }, [clientId]);

  const turnOn = async () => {
    if (!clientId) return;
    setBusy(true);
    setProblem(null);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setState(permission === 'denied' ? 'denied' : 'off');
        return;
      }
      const key = await pushPublicKey().catch(() => null);
      if (key === null) {
        setProblem('unavailable');
        return;
      }
      const subscription = await subscribeThisBrowser(key);
      await saveThisDevice(clientId, subscription).catch(async (error: unknown) => {
        await subscription.unsubscribe();
        throw error;
      });
      setState('on');
    } catch {
      setProblem('failed');
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    if (!clientId) return;
    setBusy(true);
    setProblem(null);
    await forgetThisDevice(clientId);
    setState('off');
    setBusy(false);
  };

  const text =
    state === 'unsupported'
      ? t('push.unsupported')
      : state === 'denied'
        ? t('push.denied')
        : state === 'on'
          ? t('push.on')
          : state === 'off'
            ? t('push.off')
            : null;
  return (
    <Panel className="mt-5">
      <PanelHeading icon={<Smartphone className="size-5" />} title={t('push.title')} text={t('push.text')} />
      <div className="mt-4 flex flex-wrap items-center gap-3 sm:pl-13" aria-live="polite">
        {text ? (
          <p className="min-w-0 flex-1 basis-48 text-sm font-medium text-slate-800" data-testid="push-state">
            {text}
          </p>
        ) : null}
        {state === 'off' ? (
          <Button loading={busy} onClick={() => void turnOn()}>
            {t('push.turn_on')}
          </Button>
        ) : state === 'on' ? (
          <Button variant="secondary" loading={busy} onClick={() => void turnOff()}>
            {t('push.turn_off')}
          </Button>
        ) : null}
        {problem ? (
          <p role="alert" className="w-full text-sm font-medium text-red-700">
            {t(`push.${problem}`)}
          </p>
        ) : null}
      </div>
    </Panel>
  );
}
