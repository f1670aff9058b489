import type { Locale } from '../constants.ts';
import { formatDate } from '../dates/format-date.ts';
import { formatMoney } from '../money/format.ts';
import type { NoticeBody } from './schemas.ts';

type Translate = (key: string, vars?: Record<string, string>) => string;

/**
 * A notice's sentence in the reader's language (`common:notices.*`), as the app lists it and its push notice says it:
 * the team and workplace as they were named then, the rule by its name, the period by its month, an adjustment by its
 * amount.
 */
export function noticeText(notice: NoticeBody, t: Translate, locale: Locale): string {
  return t(`common:notices.${notice.kind}`, {
    team: notice.team,
    workplace: notice.workplace,
    ...(notice.rule && { rule: t(`teams:rules.kind.${notice.rule}`) }),
    ...(notice.month && {
      month: formatDate(new Date(`${notice.month}-01T00:00:00Z`), 'month', locale, { timeZone: 'UTC' }),
    }),
    ...(notice.amount_cents != null && { amount: formatMoney(notice.amount_cents, locale) }),
  });
}
