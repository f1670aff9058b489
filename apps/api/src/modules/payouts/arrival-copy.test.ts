import { describe, expect, it } from 'vitest';
import { LOCALES } from '@tipcard/shared/constants';
import { t } from '../../lib/i18n.ts';
import { CUTOFF_HOUR, expectedArrival } from './business-days.ts';

/** A weekday's name in a language, without its last letter (Latvian says "otrdienā" where the name is "otrdiena"). */
const weekdayStem = (day: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' })
    .format(new Date(`${day}T12:00:00Z`))
    .toLowerCase()
    .slice(0, -1);

describe('what the FAQ says about payout arrival', () => {
  it('names the day the arrival-date code computes for a Friday evening, and its cut-off, in every language', () => {
    // Friday 20 November 2026, 18:00 in Riga (UTC+2).
    const arrival = expectedArrival(new Date('2026-11-20T16:00:00Z'));
    for (const locale of LOCALES) {
      const answer = t('marketing:faq.items.payout.a', {}, locale).toLowerCase();
      expect(answer, locale).toContain(weekdayStem(arrival, locale));
      expect(answer, locale).toContain(String(CUTOFF_HOUR));
    }
  });

  it('promises the next business day only before the cut-off, as the code does', () => {
    expect(expectedArrival(new Date('2026-11-23T11:00:00Z'))).toBe('2026-11-24'); // Monday 13:00 → Tuesday
    expect(expectedArrival(new Date('2026-11-23T13:30:00Z'))).toBe('2026-11-25'); // Monday 15:30 → Wednesday
    for (const locale of LOCALES) {
      expect(t('legal:terms.sections.payouts.paragraphs.1', {}, locale), locale).not.toMatch(
        /within 1 business day|1 darba dienas laikā|sous 1 jour ouvré|en 1 día hábil/i,
      );
    }
  });
});
