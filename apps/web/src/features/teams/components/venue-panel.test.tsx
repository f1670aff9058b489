import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi, pending } from '../../../test/fake-api.ts';
import { signedInRoutes } from '../../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../../test/render-page.tsx';
import { KITCHEN_ID, percentages, TEAM_ID, TEAM_ROUTES, venueCard, WORKPLACE_ID } from '../workplace-test-data.ts';
import { VenueCardPanel, VenuePercentagesPanel } from './venue-panel.tsx';

beforeAll(() => {
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: () => 'blob:tipcard-venue-qr' });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
});

const percentagesPanel = <VenuePercentagesPanel workplaceId={WORKPLACE_ID} />;

describe('the venue card panel', () => {
  it("shows the venue card's QR code for its link, and the tip page", async () => {
    const api = fakeApi({ ...signedInRoutes(), [TEAM_ROUTES.venueCard]: venueCard, [TEAM_ROUTES.venueCardQr]: 'png' });
    await renderPage(<VenueCardPanel workplaceId={WORKPLACE_ID} venueName="Café Rīga" />);
    expect(await screen.findByRole('img', { name: 'QR code of the venue card' })).toHaveAttribute('src', 'blob:tipcard-venue-qr');
    expect(api.sent(TEAM_ROUTES.venueCardQr)[0]!.query.get('url')).toBe(venueCard.payment_url);
    expect(screen.getByRole('link', { name: 'Open the tip page' })).toHaveAttribute('href', venueCard.payment_url);
    // Every venue admin orders it from the card shop, whoever holds it (decision 0061).
    expect(screen.getByRole('link', { name: 'Order printed cards' })).toHaveAttribute(
      'href',
      expect.stringContaining(`/card-orders?card=${venueCard.card_id}`),
    );
  });

  it('says when the card cannot be loaded, and tries again', async () => {
    let fail = true;
    fakeApi({
      ...signedInRoutes(),
      [TEAM_ROUTES.venueCard]: () => (fail ? apiError(500, 'internal') : venueCard),
      [TEAM_ROUTES.venueCardQr]: 'png',
    });
    await renderPage(<VenueCardPanel workplaceId={WORKPLACE_ID} venueName="Café Rīga" />);
    expect(await screen.findByText('The venue card could not be loaded.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('img', { name: 'QR code of the venue card' })).toBeInTheDocument();
  });
});

describe('the percentages between teams', () => {
  it('says it is loading', async () => {
    fakeApi({ ...signedInRoutes(), [TEAM_ROUTES.percentages]: pending });
    await renderPage(percentagesPanel);
    expect(await screen.findByRole('status', { name: 'Loading the percentages…' })).toBeInTheDocument();
  });

  it('shows a member the percentages in force, read only', async () => {
    fakeApi({
      ...signedInRoutes(),
      [TEAM_ROUTES.percentages]: percentages({ can_edit: false, id: KITCHEN_ID, created_at: '2026-11-02T10:00:00Z' }),
    });
    await renderPage(percentagesPanel);
    expect(await screen.findByTestId('percentages-in-force')).toHaveTextContent('In force since');
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByText('Kitchen')).toBeInTheDocument();
    expect(screen.getAllByText('50%')).toHaveLength(2);
  });

  it('sums the fields as the admin types, refuses a wrong sum or a bad number inline, and saves the right one', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [TEAM_ROUTES.percentages]: percentages(),
      [TEAM_ROUTES.setPercentages]: percentages({ id: KITCHEN_ID, created_at: '2026-11-27T10:00:00Z' }),
    });
    await renderPage(percentagesPanel);
    const front = await screen.findByRole('textbox', { name: 'Café Rīga team' });
    const kitchen = screen.getByRole('textbox', { name: 'Kitchen' });
    expect(screen.getByTestId('percentages-total')).toHaveTextContent('Total: 100%');
    await userEvent.clear(front);
    await userEvent.type(front, '66,66');
    expect(screen.getByTestId('percentages-total')).toHaveTextContent('Total: 116.66%. The percentages must add up to 100 %.');
    expect(screen.getByRole('button', { name: 'Save the percentages' })).toBeDisabled();
    await userEvent.clear(kitchen);
    await userEvent.type(kitchen, '33.345');
    expect(kitchen).toHaveAccessibleDescription(expect.stringContaining('Enter a percentage from 0 to 100'));
    await userEvent.clear(kitchen);
    await userEvent.type(kitchen, '33.34');
    expect(screen.getByTestId('percentages-total')).toHaveTextContent('Total: 100%');
    await userEvent.click(screen.getByRole('button', { name: 'Save the percentages' }));
    await waitFor(() => expect(api.sent(TEAM_ROUTES.setPercentages)).toHaveLength(1));
    expect(api.sent(TEAM_ROUTES.setPercentages)[0]!.body).toEqual({
      shares: [
        { team_id: TEAM_ID, basis_points: 6666 },
        { team_id: KITCHEN_ID, basis_points: 3334 },
      ],
    });
    expect(await snackbarText()).toBe('The percentages are in force from now');
  });

  it("shows the server's refusal", async () => {
    fakeApi({
      ...signedInRoutes(),
      [TEAM_ROUTES.percentages]: percentages(),
      [TEAM_ROUTES.setPercentages]: apiError(422, 'venue_percentages_teams'),
    });
    await renderPage(percentagesPanel);
    await userEvent.click(await screen.findByRole('button', { name: 'Save the percentages' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Give every team of the venue a percentage, once each');
  });
});
