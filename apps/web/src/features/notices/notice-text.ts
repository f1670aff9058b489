import type { NoticeBody } from '@tipcard/shared/notices/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { currentLocale } from '../../lib/i18n.ts';

type Translate = (key: string, vars?: Record<string, string>) => string;

/**
 * A notice's sentence in the reader's language (`common:notices.*`, as its push notice says it): the team and
 * workplace as they were named then, the rule by its name, the period by its month.
 */
export function noticeText(notice: NoticeBody, t: Translate): string {
  return t(`common:notices.${notice.kind}`, {
    team: notice.team,
    workplace: notice.workplace,
    ...(notice.rule && { rule: t(`teams:rules.kind.${notice.rule}`) }),
    ...(notice.month && {
      month: formatDate(new Date(`${notice.month}-01T00:00:00Z`), 'month', currentLocale(), { timeZone: 'UTC' }),
    }),
  });
}
