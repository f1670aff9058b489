import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PublicVenue } from '@tipcard/shared/teams/venue-page';
import { fakeApi } from '../../test/fake-api.ts';
import { renderGuestPage } from '../../test/render-guest-page.tsx';
import { VenueApp } from './venue-page.tsx';

const VENUE: PublicVenue = {
  id: '7c3d5e6f-8a9b-4c0d-9e1f-2a3b4c5d6e7f',
  name: 'Café Rīga',
  venue_card_id: null,
  people: [
    { card_id: 'c1', public_name: 'Anna Bērziņa', image_url: '/api/public/cards/c1/photo', team_title: 'Front of house' },
    { card_id: 'c2', public_name: 'Jānis', image_url: null, team_title: 'Kitchen' },
  ],
  teams: [
    { team_id: 't1', title: 'Front of house', card_id: 'tc1', member_count: 1 },
    { team_id: 't2', title: 'Kitchen', card_id: 'tc2', member_count: 4 },
  ],
};

describe('the venue page', () => {
  it('offers everyone at the venue first once it has a venue card, the tip divided between its teams', () => {
    fakeApi({});
    renderGuestPage(<VenueApp />, {
      path: `/fr/venue/${VENUE.id}`,
      locale: 'fr',
      shell: { locale: 'fr', venue: { ...VENUE, venue_card_id: 'vc1' } },
    });
    const regions = screen.getAllByRole('region');
    expect(regions[0]).toHaveAccessibleName('Tout le personnel de l’établissement');
    const [everyone] = within(regions[0]!).getAllByRole('link');
    expect(everyone).toHaveAttribute('href', '/fr/payment/vc1');
    expect(everyone).toHaveTextContent(/Café Rīga.*Partagé entre 2 équipes/);
  });

  it('offers no venue-wide choice before the venue card is made', () => {
    fakeApi({});
    renderGuestPage(<VenueApp />, { path: `/venue/${VENUE.id}`, shell: { locale: 'en', venue: VENUE } });
    expect(screen.queryByRole('region', { name: 'Everyone here' })).toBeNull();
  });

  it('lists the people and the teams as links to their card pages, each list under its heading', () => {
    fakeApi({});
    renderGuestPage(<VenueApp />, { path: `/venue/${VENUE.id}`, shell: { locale: 'en', venue: VENUE } });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Café Rīga');
    const people = within(screen.getByRole('region', { name: 'A person' })).getAllByRole('link');
    expect(people.map((link) => link.getAttribute('href'))).toEqual(['/payment/c1', '/payment/c2']);
    expect(people[0]).toHaveAccessibleName(/Photo of Anna Bērziņa.*Anna Bērziņa.*Front of house/);
    expect(screen.getByRole('img', { name: 'Photo of Anna Bērziņa' })).toHaveAttribute(
      'src',
      '/api/public/cards/c1/photo?size=avatar',
    );
    // Without a photo, the initials stand for it and are named the same way.
    expect(screen.getByRole('img', { name: 'Photo of Jānis' })).toHaveTextContent('J');
    const teams = within(screen.getByRole('region', { name: 'A team' })).getAllByRole('link');
    expect(teams.map((link) => link.getAttribute('href'))).toEqual(['/payment/tc1', '/payment/tc2']);
    expect(teams[0]).toHaveTextContent('Goes to 1 person');
    expect(teams[1]).toHaveTextContent('Shared among 4 people');
    expect(document.title).toBe('Tip the staff of Café Rīga — Tipcard');
  });

  it('shows only the teams when nobody has a card of their own yet', () => {
    fakeApi({});
    renderGuestPage(<VenueApp />, { path: `/venue/${VENUE.id}`, shell: { locale: 'en', venue: { ...VENUE, people: [] } } });
    expect(screen.queryByRole('region', { name: 'A person' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'A team' })).getAllByRole('link')).toHaveLength(2);
  });

  it('keeps the page’s language in its links, and follows the language the guest switches to', async () => {
    fakeApi({});
    renderGuestPage(<VenueApp />, { path: `/fr/venue/${VENUE.id}`, locale: 'fr', shell: { locale: 'fr', venue: VENUE } });
    expect(screen.getByText('Choisissez à qui va votre pourboire.')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Jānis/ })[0]).toHaveAttribute('href', '/fr/payment/c2');
    await userEvent.selectOptions(screen.getByLabelText('Langue'), 'es');
    expect(screen.getByText('Elige para quién es tu propina.')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Jānis/ })[0]).toHaveAttribute('href', '/es/payment/c2');
    expect(screen.getByRole('link', { name: /^Kitchen/ })).toHaveTextContent('Se reparte entre 4 personas');
  });

  it('is the “no longer active” page without a venue', () => {
    fakeApi({});
    renderGuestPage(<VenueApp />, { path: '/venue/nope', shell: { locale: 'en', venue: null } });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('This link is no longer active');
  });
});
