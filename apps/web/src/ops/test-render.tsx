import { configure, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { onTestFinished } from 'vitest';
import { createOpsQueryClient, OPS_ROUTES, OpsProviders } from './ops-app.tsx';
import { session, setSignedOutHandler, type SignedInOperator } from './ops-api.ts';

// Each screen is a lazily loaded chunk: the first render of one in a test file compiles it, which on a busy machine
// takes longer than Testing Library's default second.
configure({ asyncUtilTimeout: 4_000 });

export const OPERATOR_ID = '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

interface RenderOpsOptions {
  /** The signed-in operator's role (admin sees every screen); `null` for nobody signed in. */
  role?: SignedInOperator['role'] | null;
}

/**
 * The back office at one hash path, as the operator's browser shows it: its routes (the shell with the side bar, the
 * session check, the lazily loaded screen) in a memory router, a fresh query cache, and the operator's token in
 * sessionStorage. Pair it with `fakeApi` and keys like 'GET /ops/tickets'.
 */
export function renderOps(path: string, { role = 'admin' }: RenderOpsOptions = {}) {
  session.clear();
  if (role) session.save('ops-test-token', { id: OPERATOR_ID, email: `${role}@ops.example`, role });
  onTestFinished(() => {
    session.clear();
    setSignedOutHandler(() => undefined);
  });
  const router = createMemoryRouter(OPS_ROUTES, { initialEntries: [path] });
  const view = render(
    <OpsProviders queryClient={createOpsQueryClient()}>
      <RouterProvider router={router} />
    </OpsProviders>,
  );
  return { ...view, router };
}

/** Where the router is now ("/sign-in"), with its query. */
export const currentPath = (router: ReturnType<typeof renderOps>['router']) =>
  `${router.state.location.pathname}${router.state.location.search}`;

/** The page's heading, once the lazily loaded screen is in. */
export const findHeading = (name: string) => screen.findByRole('heading', { level: 1, name });
