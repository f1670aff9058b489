import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { showSnackbar, uiStore } from '../../lib/ui-store.ts';
import { Snackbar } from './snackbar.tsx';

function renderWithRouter() {
  const router = createMemoryRouter([{ path: '*', element: <Snackbar /> }], { initialEntries: ['/account/photo'] });
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  vi.restoreAllMocks();
  uiStore.set({ snackbar: null });
});

describe('the snackbar', () => {
  it('stays for the page its action opens, and goes when the user moves on to another', async () => {
    const router = renderWithRouter();
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    act(() => showSnackbar('Photo uploaded', 'success'));
    await act(() => router.navigate('/account'));
    expect(screen.getByTestId('snackbar')).toHaveTextContent('Photo uploaded');
    now += 3_000;
    await act(() => router.navigate('/overview'));
    expect(screen.queryByTestId('snackbar')).toBeNull();
  });
});
