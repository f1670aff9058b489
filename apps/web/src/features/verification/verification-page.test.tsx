import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { meAnswer } from '../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../test/render-page.tsx';
import { STATUS, SUBMIT, verification } from './test-data.ts';
import VerificationPage from './verification-page.tsx';

const PENDING = verification({ status: 'pending', kind: 'person', submitted_at: '2026-03-02T09:30:00Z' });

const scan = (name: string) => new File(['%PDF-1'], name, { type: 'application/pdf' });
const open = (locale: 'en' | 'lv' = 'en') => renderPage(<VerificationPage />, { path: '/verification', locale });
const documentInput = (name: string) => screen.getByLabelText(name, { selector: 'input' });

async function fillPerson() {
  const form = await screen.findByRole('form', { name: 'Private person' });
  const type = (label: string, value: string) => userEvent.type(within(form).getByLabelText(label), value);
  await type('First name', 'Anna');
  await type('Last name', 'Bērziņa');
  fireEvent.change(within(form).getByLabelText('Date of birth'), { target: { value: '1990-05-17' } });
  await type('Personal code', '170590-12345');
  await type('Address', 'Brīvības iela 1, Rīga, LV-1010, Latvia');
  await userEvent.upload(documentInput('Identity document: front'), scan('front.pdf'));
  await userEvent.upload(documentInput('Identity document: back'), scan('back.pdf'));
  return form;
}

describe('the verification page', () => {
  it('says it is loading while the status is on its way', async () => {
    fakeApi({ 'GET /me': meAnswer(), [STATUS]: pending });
    await open();
    expect(await screen.findByRole('status', { name: 'Loading your verification…' })).toBeInTheDocument();
  });

  it('offers to try again after a failed load', async () => {
    let failures = 1;
    fakeApi({ 'GET /me': meAnswer(), [STATUS]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : PENDING) });
    await open();
    await userEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'We are checking your documents' })).toBeInTheDocument();
  });

  it('shows a pending request without a form, in the reader’s language', async () => {
    fakeApi({ 'GET /me': meAnswer(), [STATUS]: PENDING });
    await open('lv');
    const status = await screen.findByRole('region', { name: /Mēs pārbaudām/ });
    expect(status).toHaveTextContent('2026');
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
  });

  it('shows the reason of a rejection and opens the form on the kind sent last time', async () => {
    fakeApi({
      'GET /me': meAnswer(),
      [STATUS]: verification({ status: 'rejected', kind: 'company', reason: 'The certificate is unreadable.' }),
    });
    await open();
    expect(await screen.findByText('The certificate is unreadable.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Company' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('form', { name: 'Company' })).toBeInTheDocument();
  });

  it('moves between the person and company forms with the arrow keys', async () => {
    fakeApi({ 'GET /me': meAnswer(), [STATUS]: verification() });
    await open();
    const person = await screen.findByRole('tab', { name: 'Private person' });
    person.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Company' })).toHaveFocus();
    expect(screen.getByRole('form', { name: 'Company' })).toBeInTheDocument();
    await userEvent.keyboard('{Home}');
    expect(screen.getByRole('form', { name: 'Private person' })).toBeInTheDocument();
  });
});

describe('the person form', () => {
  it('asks for every field and both documents before sending', async () => {
    const api = fakeApi({ 'GET /me': meAnswer(), [STATUS]: verification() });
    await open();
    const form = await screen.findByRole('form', { name: 'Private person' });
    await userEvent.click(within(form).getByRole('button', { name: 'Send for review' }));
    expect(await within(form).findAllByText('This field is required')).toHaveLength(5);
    expect(within(form).getAllByText('Add this document')).toHaveLength(2);
    expect(api.sent(SUBMIT)).toHaveLength(0);
  });

  it('refuses a document of the wrong type at once', async () => {
    fakeApi({ 'GET /me': meAnswer(), [STATUS]: verification() });
    await open();
    await screen.findByRole('form', { name: 'Private person' });
    const input = documentInput('Identity document: front');
    await userEvent.upload(input, new File(['x'], 'scan.docx', { type: 'application/msword' }), { applyAccept: false });
    expect(input).toHaveAccessibleDescription('This file type is not allowed. Use PDF, JPG or PNG.');
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a chosen document, which can be removed', async () => {
    fakeApi({ 'GET /me': meAnswer(), [STATUS]: verification() });
    await open();
    await screen.findByRole('form', { name: 'Private person' });
    await userEvent.upload(documentInput('Identity document: front'), scan('front.pdf'));
    expect(screen.getByText('front.pdf')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove front.pdf' }));
    expect(screen.queryByText('front.pdf')).not.toBeInTheDocument();
  });

  it('sends the details with both documents and shows the pending status', async () => {
    const api = fakeApi({ 'GET /me': meAnswer(), [STATUS]: verification(), [SUBMIT]: PENDING });
    await open();
    const form = await fillPerson();
    await userEvent.click(within(form).getByRole('button', { name: 'Send for review' }));
    expect(await screen.findByRole('heading', { name: 'We are checking your documents' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Private person' })).not.toBeInTheDocument();
    expect(api.sent(SUBMIT)[0]!.body).toMatchObject({
      kind: 'person',
      first_name: 'Anna',
      birthday: '1990-05-17',
      document_front: { name: 'front.pdf', mime: 'application/pdf', content: btoa('%PDF-1') },
      document_back: { name: 'back.pdf' },
    });
    expect(snackbarText()).toBe('Your documents were sent. We will review them soon.');
  });

  it('puts the server’s refusals under the field and the document they name', async () => {
    fakeApi({
      'GET /me': meAnswer(),
      [STATUS]: verification(),
      [SUBMIT]: apiError(422, 'invalid_file', 'This file type is not allowed', {
        document_back: ['This file type is not allowed'],
      }),
    });
    await open('lv');
    await screen.findByRole('form', { name: 'Privātpersona' });
    await fillPersonInLatvian();
    await userEvent.click(screen.getByRole('button', { name: 'Nosūtīt izskatīšanai' }));
    const back = screen.getByLabelText('Personu apliecinošs dokuments: aizmugure', { selector: 'input' });
    await waitFor(() => expect(back).toHaveAccessibleDescription('Šāds faila veids nav atļauts'));
  });
});

describe('the company form', () => {
  it('checks the IBAN before sending', async () => {
    const api = fakeApi({ 'GET /me': meAnswer(), [STATUS]: verification({ kind: 'company', status: 'rejected' }) });
    await open();
    const form = await screen.findByRole('form', { name: 'Company' });
    await userEvent.type(within(form).getByLabelText('IBAN of the company account'), 'LV00 NOPE');
    await userEvent.click(within(form).getByRole('button', { name: 'Send for review' }));
    expect(await within(form).findByText('Enter a valid IBAN')).toBeInTheDocument();
    expect(api.sent(SUBMIT)).toHaveLength(0);
  });
});

/** The person form in Latvian: the same values as `fillPerson`. */
async function fillPersonInLatvian() {
  const form = screen.getByRole('form', { name: 'Privātpersona' });
  const inputs = within(form).getAllByRole('textbox');
  for (const [input, value] of inputs.map(
    (input, index) => [input, ['Anna', 'Bērziņa', '170590-12345', 'Rīga'][index]!] as const,
  ))
    await userEvent.type(input, value);
  fireEvent.change(form.querySelector('input[type="date"]')!, { target: { value: '1990-05-17' } });
  const files = form.querySelectorAll<HTMLInputElement>('input[type="file"]');
  await userEvent.upload(files[0]!, scan('front.pdf'));
  await userEvent.upload(files[1]!, scan('back.pdf'));
}
