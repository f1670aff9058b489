import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, LOCALES } from '../constants.ts';
import { readCatalogs } from '../i18n/node-catalogs.ts';
import { translate } from '../i18n/translate.ts';
import { describeTransaction, transactionDetailSchema, type TransactionDetail } from './detail.ts';

const catalogs = readCatalogs();
const EXAMPLES: TransactionDetail[] = [
  { kind: 'tip', card: 'Café Rīga' },
  { kind: 'team_tip', team: 'Bar crew' },
  { kind: 'invoice', invoice: 'Wedding photos' },
  { kind: 'donation', donor: 'Jānis' },
  { kind: 'monthly_donation', donor: 'Jānis' },
  { kind: 'payout', account: 'LV•• 5001' },
  { kind: 'referral', friend: '+371 •••• 4567' },
  { kind: 'closing_gift_given', charity: 'Rīgas Sarkanais Krusts' },
  { kind: 'closing_gift' },
  { kind: 'team_adjustment', team: 'Bar crew', month: '2026-11' },
  { kind: 'team_adjustment_given', team: 'Bar crew', month: '2026-11' },
];

describe('describeTransaction', () => {
  it('names every kind in every language with its facts filled in, and no language falls back to English', () => {
    expect(new Set(EXAMPLES.map((e) => e.kind)).size).toBe(transactionDetailSchema.options.length);
    for (const locale of LOCALES) {
      for (const detail of EXAMPLES) {
        const line = describeTransaction({ detail, description: 'unused' }, (key, vars) =>
          translate(catalogs, locale, key, vars),
        );
        const { kind: _kind, ...facts } = detail;
        for (const fact of Object.values(facts)) expect(line).toContain(fact);
        expect(line).not.toMatch(/\{\{/);
        if (locale !== DEFAULT_LOCALE)
          expect(line).not.toBe(translate(catalogs, DEFAULT_LOCALE, `transactions:detail.${detail.kind}`, facts));
      }
    }
  });

  it('shows the stored text of a row older than details', () => {
    expect(describeTransaction({ detail: null, description: 'Tip via Café Rīga' }, () => 'never')).toBe('Tip via Café Rīga');
  });
});
