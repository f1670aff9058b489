import type { Locale } from '@tipcard/shared/constants';
import { formatDate } from '@tipcard/shared/dates/format-date';
import type { LiveEventBody } from '@tipcard/shared/live/schemas';
import { formatMoney } from '@tipcard/shared/money/format';
import type { PushPayload } from '@tipcard/shared/push/schemas';
import { noticeText } from '@tipcard/shared/notices/notice-text';
import { appRoutePath, t } from '../../lib/i18n.ts';

/**
 * The push notice of a live event, in the user's language, or null for events a closed app is not told of: a release
 * from hold (the tip was told when it came) and a withdrawal just requested (the user is in the app, typing its code).
 * The text is the open app's live notice (`common:live.*`); the payload holds nothing more than the notice shows.
 */
export function pushNoticeOf(event: LiveEventBody, locale: Locale): PushPayload | null {
  if (event.type === 'notice')
    return {
      title: t('common:push.title_team', {}, locale),
      body: noticeText(event.notice, (key, vars) => t(key, vars ?? {}, locale), locale),
      url: appRoutePath(locale, '/notices'),
      tag: `notice-${event.notice_id}`,
    };
  if (event.type === 'released') return null;
  const amount = formatMoney(event.amount_cents, locale);
  if (event.type === 'payout') {
    if (event.status === 'requested') return null;
    return {
      title: t('common:push.title_payout', {}, locale),
      body: t(`common:live.payout_${event.status}`, { amount }, locale),
      url: appRoutePath(locale, '/payouts'),
      tag: `payout-${event.payout_id}`,
    };
  }
  return {
    title: t('common:push.title_credit', {}, locale),
    body:
      event.label === null
        ? t(`common:live.credit_${event.kind}`, { amount }, locale)
        : t(`common:live.credit_${event.kind}_from`, { amount, name: event.label }, locale),
    url: appRoutePath(locale, '/overview'),
    tag: `credit-${event.payment_id ?? event.kind}`,
  };
}
