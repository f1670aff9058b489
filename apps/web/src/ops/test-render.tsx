import { configure, render, screen } from '@testing-library/react';
import type { OpsQueueCounts } from '@tipcard/shared/ops/schemas';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { onTestFinished, vi } from 'vitest';
import { createOpsQueryClient, OPS_ROUTES, OpsProviders } from './ops-app.tsx';
import { session, setSignedOutHandler, type SignedInOperator } from './ops-api.ts';

// Each screen is a lazily loaded chunk: the first render of one in a test file compiles it, which on a busy machine
// takes longer than Testing Library's default second.
configure({ asyncUtilTimeout: 4_000 });

export const OPERATOR_ID = '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

interface RenderOpsOptions {
  /** The signed-in operator's role (admin sees every screen); `null` for nobody signed in. */
  role?: SignedInOperator['role'] | null;
  /** What the menu's badges count (`GET /ops/queues`, which every screen's shell asks); by default nothing waits. */
  queues?: Partial<OpsQueueCounts>;
}

const NOTHING_WAITING: OpsQueueCounts = {
  tickets_waiting: 0,
  verifications_to_review: 0,
  refunds_to_approve: 0,
  batches_to_close: 0,
  dead_messages: 0,
};

/**
 * Answers the shell's queue counts in front of the test's `fakeApi` (stub it first), so a screen's test fakes only its
 * own routes; every other call goes on to the test's routes.
 */
function answerQueues(queues: Partial<OpsQueueCounts>) {
  const faked = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith('/api/ops/queues'))
      return Promise.resolve(
        new Response(JSON.stringify({ data: { ...NOTHING_WAITING, ...queues } }), {
          headers: { 'content-type': 'application/json' },
        }),
      );
    return faked(input, init);
  });
}

/**
 * The back office at one hash path, as the operator's browser shows it: its routes (the shell with the side bar, the
 * session check, the lazily loaded screen) in a memory router, a fresh query cache, and the operator's token in
 * sessionStorage. Pair it with `fakeApi` and keys like 'GET /ops/tickets'.
 */
export function renderOps(path: string, { role = 'admin', queues = {} }: RenderOpsOptions = {}) {
  answerQueues(queues);
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
