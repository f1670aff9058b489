import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi } from '../../test/fake-api.ts';
import { signedInRoutes } from '../../test/fixtures.ts';
import { navigatedTo, renderPage } from '../../test/render-page.tsx';
import { openModal, uiStore } from '../../lib/ui-store.ts';
import { STATUS, verification } from './test-data.ts';
import { VerificationModal } from './verification-modal.tsx';

async function openAt(answer: ReturnType<typeof verification>, locale: 'en' | 'fr' | 'es' = 'en') {
  fakeApi({ ...signedInRoutes({ verification_required: true }), [STATUS]: answer });
  await renderPage(<VerificationModal />, { path: locale === 'en' ? '/payouts' : `/${locale}/payouts`, locale });
  act(() => openModal('verification'));
}

describe('the verification modal', () => {
  it('names the limit reached, in the reader’s money format, and says payouts are paused', async () => {
    await openAt(verification(), 'fr');
    const modal = await screen.findByRole('dialog', { name: 'Vérification' });
    expect(await within(modal).findByText(/Vos pourboires ont atteint 1\s000,00\s€\./)).toBeInTheDocument();
    expect(within(modal).getByText(/Les retraits sont suspendus/)).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'Aller à la vérification' }));
    expect(await navigatedTo()).toBe('/fr/verification');
    expect(uiStore.get().modals.verification).toBe(false);
  });

  it('is "Under review" once the documents are sent: nothing asked again, an SMS promised', async () => {
    await openAt(verification({ status: 'pending', kind: 'person', submitted_at: '2026-03-02T09:30:00Z' }));
    const modal = await screen.findByRole('dialog', { name: 'Under review' });
    expect(
      await within(modal).findByText('We have your documents and are checking them. There is nothing more to send.'),
    ).toBeInTheDocument();
    expect(
      within(modal).getByText('Payouts are paused until the review ends. We will text you as soon as it does.'),
    ).toBeInTheDocument();
    expect(within(modal).queryByRole('button', { name: 'Go to Verification' })).not.toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'OK' }));
    expect(uiStore.get().modals.verification).toBe(false);
  });

  it('gives the reason of a rejection and leads to sending again', async () => {
    await openAt(verification({ status: 'rejected', kind: 'person', reason: 'La foto está borrosa.' }), 'es');
    const modal = await screen.findByRole('dialog', { name: 'Verificación' });
    expect(await within(modal).findByText('Tu última solicitud no fue aprobada: La foto está borrosa.')).toBeInTheDocument();
    expect(within(modal).getByText(/Los retiros están en pausa/)).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Ir a la verificación' })).toBeEnabled();
  });
});
