import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, pending } from '../../test/fake-api.ts';
import { signedInRoutes } from '../../test/fixtures.ts';
import { navigatedTo, renderPage } from '../../test/render-page.tsx';
import { TEAM_ROUTES, workplace } from './workplace-test-data.ts';
import WorkplaceCreatePage from './workplace-create-page.tsx';

const page = { path: '/workplace/create' };

describe('the create workplace page', () => {
  it('says it is loading while it checks for a team', async () => {
    fakeApi({ ...signedInRoutes(), [TEAM_ROUTES.workplace]: pending });
    await renderPage(<WorkplaceCreatePage />, page);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
  });

  it('sends a member of a team to their workplace', async () => {
    fakeApi({ ...signedInRoutes(), [TEAM_ROUTES.workplace]: workplace() });
    await renderPage(<WorkplaceCreatePage />, page);
    expect(await navigatedTo()).toBe('/workplace');
  });

  it('starts from the country of the user’s card', async () => {
    fakeApi({ ...signedInRoutes(), [TEAM_ROUTES.workplace]: null });
    await renderPage(<WorkplaceCreatePage />, page);
    expect(await screen.findByRole('combobox', { name: 'Country' })).toHaveValue('LV');
  });

  it('creates the workplace and opens it', async () => {
    let created = false;
    const api = fakeApi({
      ...signedInRoutes(),
      [TEAM_ROUTES.workplace]: () => (created ? workplace() : null),
      [TEAM_ROUTES.create]: () => {
        created = true;
        return workplace();
      },
    });
    await renderPage(<WorkplaceCreatePage />, page);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Workplace name' }), 'Café Rīga');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'EE');
    await userEvent.click(screen.getByRole('button', { name: 'Create workplace' }));
    expect(await navigatedTo()).toBe('/workplace');
    expect(api.sent(TEAM_ROUTES.create)[0]!.body).toEqual({ name: 'Café Rīga', country: 'EE' });
  });

  it('names what is missing and sends nothing', async () => {
    // A card from a country the service does not serve leaves the choice to the user.
    const api = fakeApi({ ...signedInRoutes({}, { country: 'US' }), [TEAM_ROUTES.workplace]: null });
    await renderPage(<WorkplaceCreatePage />, page);
    expect(await screen.findByRole('combobox', { name: 'Country' })).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Create workplace' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(screen.getByText('Choose a country from the list')).toBeInTheDocument();
    expect(api.sent(TEAM_ROUTES.create)).toEqual([]);
  });
});
