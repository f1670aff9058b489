import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import '../../../lib/i18n.ts';
import { OrderForm, type OrderFormOutput } from './order-form.tsx';

describe('the card order form', () => {
  it('sends the chosen quantity as a number, which the order contract takes (it refuses the text "3")', async () => {
    const onPreview = vi.fn<(order: OrderFormOutput) => void>();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <OrderForm
            clientId={undefined}
            defaults={{ first_name: 'Anna', last_name: 'Ozola', city: 'Riga', address: 'Brivibas iela 1', zip: 'LV-1010' }}
            itemsLeft={10}
            cards={[]}
            onPreview={onPreview}
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByLabelText('Quantity'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(onPreview).toHaveBeenCalled());
    expect(onPreview.mock.calls[0]![0]).toMatchObject({ product: 'card', quantity: 3, country: 'LV' });
  });
});
