import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { CardOrder } from '@tipcard/shared/card-orders/schemas';
import { i18n, loadLocale } from '../../../lib/i18n.ts';
import { OrderHistory } from './order-history.tsx';

const order: CardOrder = {
  id: '2f1d7c1e-4b7a-4c55-9a1e-0c3f7d2b9a10',
  card_id: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  product: 'card',
  quantity: 1,
  status: 'placed',
  free: false,
  total_cents: 1_200,
  currency: 'EUR',
  country: 'LV',
  city: 'Riga',
  address: 'Brivibas iela 1',
  apartment: null,
  zip: 'LV-1010',
  first_name: 'Anna',
  last_name: 'Ozola',
  additional_info: null,
  tracking_reference: null,
  checkout_url: null,
  created_at: '2025-01-14T12:00:00Z',
  placed_at: '2025-01-14T12:00:00Z',
  shipped_at: null,
};

afterEach(() => i18n.changeLanguage('en'));

describe('the card order history', () => {
  it('writes the date in the current language, like the amount beside it', async () => {
    for (const [locale, line] of [
      ['en', 'Jan 14, 2025 · €12.00'],
      ['lv', '2025. gada 14. janv. · 12,00 €'],
      ['fr', '14 janv. 2025 · 12,00 €'],
    ] as const) {
      await loadLocale(locale);
      await i18n.changeLanguage(locale);
      const { unmount } = render(
        <OrderHistory orders={{ isPending: false, isError: false, data: [order], refetch: () => undefined }} />,
      );
      expect(screen.getByTestId('card-order-row')).toHaveTextContent(line);
      unmount();
    }
  });
});
