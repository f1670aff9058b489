import type { Verification } from '@tipcard/shared/verification/schemas';
import { CLIENT_ID } from '../../test/fixtures.ts';

export const STATUS = `GET /clients/${CLIENT_ID}/verification`;
export const SUBMIT = `POST /clients/${CLIENT_ID}/verification`;

/** The limit the fixtures answer: 1,000 EUR of received tips. */
export const LIMIT_CENTS = 100_000;

export const verification = (overrides: Partial<Verification> = {}): Verification => ({
  status: 'not_started',
  kind: null,
  reason: null,
  submitted_at: null,
  reviewed_at: null,
  limit_cents: LIMIT_CENTS,
  ...overrides,
});
