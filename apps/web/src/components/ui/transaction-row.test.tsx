import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { i18n, loadLocale } from '../../lib/i18n.ts';
import { tipTransaction } from '../../test/fixtures.ts';
import { TransactionRow } from './transaction-row.tsx';

afterEach(() => i18n.changeLanguage('en'));

describe('a history line', () => {
  it('names money in by what it was: a tip, an invoice paid, a donation, a monthly donation', async () => {
    await loadLocale('lv');
    await i18n.changeLanguage('lv');
    for (const [detail, label] of [
      [{ kind: 'tip', card: 'Anna' }, 'Dzeramnauda'],
      [{ kind: 'invoice', invoice: 'Kāzu foto' }, 'Rēķina apmaksa'],
      [{ kind: 'donation', donor: 'Jānis' }, 'Ziedojums'],
      [{ kind: 'monthly_donation', donor: 'Jānis' }, 'Ikmēneša ziedojums'],
    ] as const) {
      const { unmount } = render(<TransactionRow transaction={tipTransaction({ detail })} />);
      expect(screen.getByTestId('transaction')).toHaveTextContent(`${label} ·`);
      unmount();
    }
  });
});
