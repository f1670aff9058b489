import { z } from 'zod';

/**
 * The closed list of error codes the API answers with. `code` is the stable machine key the client translates;
 * `message` is the server text the spec fixes (spec 8, DESIGN "Wire format").
 */
export const ERROR_CODES = {
  bad_request: { status: 400, message: 'Malformed request' },
  unauthorized: { status: 401, message: 'Authorization Error!' },
  forbidden: { status: 403, message: 'Access denied' },
  not_found: { status: 404, message: 'Not found' },
  payload_too_large: { status: 413, message: 'File is too large' },
  unsupported_media_type: { status: 415, message: 'Unsupported content type' },
  validation_failed: { status: 422, message: 'Enter valid data' },
  phone_taken: { status: 422, message: 'This phone is already taken' },
  card_limit: { status: 422, message: 'This client already has a card' },
  invalid_file: { status: 422, message: 'This file type is not allowed' },
  user_not_found: { status: 403, message: 'User not found' },
  username_not_found: { status: 403, message: 'Username could not be found' },
  wrong_code: { status: 403, message: 'Wrong confirmation code' },
  invalid_refresh_token: { status: 403, message: 'Authorization Error!' },
  confirmation_limit: { status: 403, message: 'Confirmation limit' },
  bot_check_failed: { status: 403, message: 'Please confirm that you are not a robot and try again' },
  too_many_attempts: { status: 429, message: 'Too many attempts to enter, try later' },
  too_many_requests: { status: 429, message: 'Too many requests' },
  resend_wait: { status: 429, message: 'Wait {seconds} seconds' },
  payout_minimum: { status: 422, message: 'Minimum withdrawal amount 3 EUR' },
  insufficient_balance: { status: 422, message: 'Insufficient balance' },
  payout_method_in_use: { status: 422, message: 'This payout account has a withdrawal in progress' },
  payout_method_limit: { status: 422, message: 'Too many payout accounts, delete one first' },
  payout_not_awaiting: { status: 422, message: 'This withdrawal is no longer waiting for a code' },
  payment_not_refundable: { status: 422, message: 'This payment cannot be refunded' },
  refund_too_large: { status: 422, message: 'The refund is larger than what is left of the payment' },
  idempotency_key_reused: { status: 422, message: 'This Idempotency-Key was used with another request' },
  invalid_webhook: { status: 400, message: 'Invalid webhook signature' },
  provider_unavailable: { status: 502, message: 'The payment provider did not answer, try again' },
  verification_required: { status: 451, message: 'Verification required' },
  verification_pending: { status: 422, message: 'Your verification is already under review' },
  verification_approved: { status: 422, message: 'Your account is already verified' },
  internal: { status: 500, message: 'Something went wrong' },
  unavailable: { status: 503, message: 'Service unavailable' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The body of every error answer (DESIGN "Wire format"); the API's OpenAPI document names it `ApiError`. */
export const apiErrorBodySchema = z.object({
  message: z.string(),
  code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
  errors: z.array(z.string()),
  validation_errors: z.record(z.string(), z.array(z.string())),
});

export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
