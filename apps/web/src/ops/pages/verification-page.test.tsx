import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Answer, apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { VERIFICATION_ID, verificationDetail } from '../test-data.ts';
import { currentPath, findHeading, renderOps } from '../test-render.tsx';

const QUEUE = 'GET /ops/verifications';
const DETAIL = `GET /ops/verifications/${VERIFICATION_ID}`;
const FRONT = `GET /ops/verifications/${VERIFICATION_ID}/documents/document_front`;
const DECISION = `POST /ops/verifications/${VERIFICATION_ID}/decision`;
// The fake API answers files through its JSON path; the type header is what the page reads.
const image = () => new Answer(200, 'png-bytes', { 'Content-Type': 'image/png' });
const queued = {
  id: VERIFICATION_ID,
  user_id: verificationDetail().user.id,
  phone: '+37120000000',
  kind: 'person',
  created_at: '2026-03-02T09:30:00Z',
};

// jsdom has no object URLs; the page shows each document from one.
beforeEach(() => {
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:document'), revokeObjectURL: vi.fn() });
});
afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('the verification queue', () => {
  it('says it is loading the requests', async () => {
    fakeApi({ [QUEUE]: pending });
    renderOps('/verifications', { role: 'compliance' });
    expect(await screen.findByRole('status', { name: 'Loading verification requests…' })).toBeInTheDocument();
  });

  it('says when nothing waits for review', async () => {
    fakeApi({ [QUEUE]: [] });
    renderOps('/verifications', { role: 'compliance' });
    expect(await screen.findByRole('heading', { name: 'No request is waiting for review.' })).toBeInTheDocument();
  });

  it('offers to try again when the queue does not load', async () => {
    fakeApi({ [QUEUE]: apiError(503, 'unavailable', 'The service is busy.') });
    renderOps('/verifications', { role: 'compliance' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The service is busy.');
  });

  it('opens a request to review', async () => {
    fakeApi({ [QUEUE]: [queued], [DETAIL]: pending });
    const { router } = renderOps('/verifications', { role: 'compliance' });
    const row = await screen.findByRole('row', { name: /\+37120000000/ });
    await userEvent.click(within(row).getByRole('link', { name: 'Review' }));
    expect(currentPath(router)).toBe(`/verifications/${VERIFICATION_ID}`);
  });
});

describe('a verification request', () => {
  it('says it is loading the request', async () => {
    fakeApi({ [DETAIL]: pending });
    renderOps(`/verifications/${VERIFICATION_ID}`, { role: 'compliance' });
    expect(await screen.findByRole('status', { name: 'Loading the verification request…' })).toBeInTheDocument();
  });

  it('says why a request cannot be shown', async () => {
    fakeApi({ [DETAIL]: apiError(404, 'not_found', 'No such request.') });
    renderOps(`/verifications/${VERIFICATION_ID}`, { role: 'compliance' });
    expect(await screen.findByRole('alert')).toHaveTextContent('No such request.');
  });

  it('shows the submitted data and the document, and approves', async () => {
    const api = fakeApi({ [DETAIL]: verificationDetail(), [FRONT]: image(), [DECISION]: { status: 'approved' } });
    renderOps(`/verifications/${VERIFICATION_ID}`, { role: 'compliance' });
    expect(await findHeading('Verification of +37120000000')).toBeInTheDocument();
    expect(screen.getByText('Liepa')).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Document, front' })).toHaveAttribute('src', 'blob:document');
    await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.sent(DECISION)).toHaveLength(1));
    expect(api.sent(DECISION)[0]!.body).toEqual({ decision: 'approve' });
  });

  it('rejects only with a reason the user will see', async () => {
    const api = fakeApi({ [DETAIL]: verificationDetail(), [FRONT]: image(), [DECISION]: { status: 'rejected' } });
    renderOps(`/verifications/${VERIFICATION_ID}`, { role: 'compliance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.getByLabelText('Reason the user will see')).toHaveAttribute('aria-invalid', 'true'));
    expect(api.sent(DECISION)).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Reason the user will see'), 'The photo is blurred.');
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(api.sent(DECISION)).toHaveLength(1));
    expect(api.sent(DECISION)[0]!.body).toEqual({ decision: 'reject', reason: 'The photo is blurred.' });
  });

  it('shows a refused decision, and a document that does not load', async () => {
    fakeApi({
      [DETAIL]: verificationDetail(),
      [FRONT]: apiError(404, 'not_found', 'The document is gone.'),
      [DECISION]: apiError(409, 'already_reviewed', 'Another operator reviewed it.'),
    });
    renderOps(`/verifications/${VERIFICATION_ID}`, { role: 'compliance' });
    expect(await screen.findByText('The document is gone.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Another operator reviewed it.')).toBeInTheDocument();
  });

  it('offers no decision on a reviewed request', async () => {
    fakeApi({
      [DETAIL]: verificationDetail({ status: 'rejected', rejection_reason: 'Expired passport', documents: [] }),
    });
    renderOps(`/verifications/${VERIFICATION_ID}`, { role: 'compliance' });
    expect(await screen.findByText('Expired passport')).toBeInTheDocument();
    expect(screen.getByText('rejected', { exact: true })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});
