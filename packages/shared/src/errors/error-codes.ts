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
  file_active_content: {
    status: 422,
    message: 'This file contains scripts, links, actions or attached files, which are not allowed',
  },
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
  payee_check_unconfirmed: {
    status: 422,
    message: 'The bank did not confirm the account holder name: correct it, or confirm that you want to save this account',
  },
  instant_unreachable: { status: 422, message: 'This bank does not take instant payouts' },
  payout_not_awaiting: { status: 422, message: 'This withdrawal is no longer waiting for a code' },
  payment_not_refundable: { status: 422, message: 'This payment cannot be refunded' },
  refund_too_large: { status: 422, message: 'The refund is larger than what is left of the payment' },
  idempotency_key_reused: { status: 422, message: 'This Idempotency-Key was used with another request' },
  invalid_webhook: { status: 400, message: 'Invalid webhook signature' },
  provider_unavailable: { status: 502, message: 'The payment provider did not answer, try again' },
  verification_required: { status: 451, message: 'Verification required' },
  verification_pending: { status: 422, message: 'Your verification is already under review' },
  verification_approved: { status: 422, message: 'Your account is already verified' },
  // Back office (issue 15)
  ops_sign_in_failed: { status: 403, message: 'Wrong e-mail, password or code (after 5 failed tries, wait 15 minutes)' },
  ops_wrong_code: { status: 422, message: 'Wrong code from the authenticator app' },
  ops_enrolment_invalid: { status: 410, message: 'This enrolment link is no longer valid' },
  weak_password: {
    status: 422,
    message: 'Use at least 8 characters with an upper-case letter, a lower-case letter and a number',
  },
  operator_exists: { status: 422, message: 'An operator with this e-mail already exists' },
  ops_conflict: { status: 409, message: 'This was already done or has changed meanwhile, reload and try again' },
  bank_report_not_xml: { status: 422, message: 'This file is not an XML file' },
  bank_report_unsupported: { status: 422, message: "This is not a bank's status report we can read (pain.002 or camt.054)" },
  bank_report_invalid: { status: 422, message: 'This file does not follow its ISO 20022 schema' },
  bank_report_foreign: { status: 422, message: 'This report answers another file, not this batch: nothing was changed' },
  batch_not_sent: { status: 409, message: "Mark this file sent to the bank before importing the bank's answer" },
  ops_code_used: { status: 403, message: 'This code was just used: wait for the next one in your authenticator app' },
  ops_passkey_failed: {
    status: 403,
    message: 'This passkey could not sign you in: try again, or sign in with your password and code',
  },
  ops_passkey_not_added: { status: 422, message: 'The passkey could not be added: try again from this page' },
  ops_passkey_exists: { status: 409, message: 'This passkey is already added' },
  ops_setup_invalid: { status: 410, message: 'This set-up link is no longer valid: the back office has an operator already' },
  operator_last_admin: { status: 409, message: 'The back office must keep at least one enabled admin' },
  refund_needs_second_operator: { status: 403, message: 'Another finance operator must approve this refund' },
  user_blocked: { status: 403, message: 'This account is blocked, contact support' },
  deletion_balance: { status: 422, message: 'Withdraw your balance before deleting your account' },
  deletion_pending_payout: { status: 422, message: 'A withdrawal is still on its way: delete your account once it has arrived' },
  deletion_balance_on_hold: {
    status: 422,
    message: 'Part of your balance is still on hold: delete your account once it is available',
  },
  deletion_debt: {
    status: 422,
    message: 'A chargeback left your balance below zero: contact support before deleting your account',
  },
  closing_balance_changed: { status: 409, message: 'Your balance changed meanwhile: start the deletion again' },
  gift_not_charity: {
    status: 422,
    message: 'This card cannot receive your balance: choose the charity card of another Tipcard user',
  },
  gift_own_card: { status: 422, message: "Your balance cannot go to one of your own cards: choose another user's charity card" },
  deletion_team_admin: { status: 422, message: 'Hand the team admin role to a colleague before deleting your account' },
  restore_expired: { status: 422, message: 'This account can no longer be restored' },
  ticket_closed: { status: 422, message: 'This ticket is closed, open a new one' },
  card_order_too_many_items: { status: 422, message: 'More than 3 cards in an order requires contacting support' },
  card_order_limit: { status: 422, message: 'You have already ordered too many cards. Contact support if you need more.' },
  card_order_status: { status: 422, message: 'This order cannot move to that status' },
  card_order_no_card: { status: 422, message: 'Create your card before ordering printed cards' },
  invoice_not_open: { status: 422, message: 'This invoice is already paid or canceled' },
  invoice_needs_card: { status: 422, message: 'Create your card before sending invoices' },
  action_link_used: { status: 409, message: 'This link has already been used' },
  action_link_expired: { status: 410, message: 'This link has expired' },
  donation_plan_ended: { status: 422, message: 'This monthly donation has already ended' },
  team_not_found: { status: 404, message: 'Team not found' },
  team_admin_only: { status: 403, message: 'Only the team admin can do this' },
  already_in_team: { status: 422, message: 'You are already a member of a team' },
  team_admin_cannot_leave: { status: 422, message: 'Hand admin access over to another member first' },
  not_team_member: { status: 422, message: 'This user is not a member of the team' },
  venue_admin_only: { status: 403, message: 'Only a venue admin can do this' },
  venue_last_admin: { status: 422, message: 'A venue keeps at least one admin: add another admin first' },
  not_venue_member: { status: 422, message: 'This user is not a member of a team of the venue' },
  shift_already_open: { status: 422, message: 'Your shift has already started' },
  shift_not_open: { status: 422, message: 'You have no shift in progress' },
  shift_overlap: { status: 422, message: 'This shift overlaps another shift of the member' },
  shift_import_invalid: { status: 422, message: 'Some rows of the file are not valid: nothing was imported' },
  join_request_closed: { status: 422, message: 'This request has already been answered' },
  tipping_policy_changed: { status: 409, message: 'The tipping policy has changed since you opened it: read the new version' },
  team_period_not_ended: { status: 422, message: 'This month is not over yet: a period closes once it has ended' },
  team_period_closed: { status: 409, message: 'This period is already closed' },
  team_period_not_closed: { status: 422, message: 'This period is not closed yet' },
  team_period_locked: { status: 409, message: 'This period is locked: it no longer changes' },
  team_period_objections_over: { status: 422, message: 'The 24 hours to object to this period are over' },
  team_period_not_involved: { status: 403, message: 'You had no share in this period and were not a member during it' },
  team_period_objection_pending: { status: 409, message: 'You already have an objection to this period waiting for an answer' },
  team_period_objection_answered: { status: 409, message: 'This objection has already been answered' },
  team_period_unanswered_objections: { status: 422, message: 'Answer every objection before locking the period' },
  team_period_window_open: {
    status: 422,
    message: 'Members can still object: lock the period once the 24 hours are over or everyone with a share has confirmed',
  },
  team_period_not_locked: { status: 409, message: 'This period is not locked yet: an adjustment is made after the lock' },
  team_adjustment_member: {
    status: 422,
    message: 'Choose members who had a share in this period or are in the team now',
  },
  team_adjustment_balance_short: {
    status: 422,
    message: 'The giving member’s available balance is less than this amount: nothing was moved',
  },
  venue_percentages_sum: { status: 422, message: 'The percentages must add up to 100 %' },
  venue_percentages_teams: { status: 422, message: 'Give every team of the venue a percentage, once each' },
  tip_answer_no_message: { status: 422, message: 'The guest left no message to answer' },
  tip_answer_no_email: { status: 422, message: 'The guest left no e-mail address, so the answer cannot be delivered' },
  tip_answer_sent: { status: 409, message: 'This message has already been answered' },
  internal: { status: 500, message: 'Something went wrong' },
  unavailable: { status: 503, message: 'Service unavailable' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The body of every error answer (DESIGN "Wire format"); the API's OpenAPI document names it `ApiError`. A plain
 * type, not a zod schema: the web app's first screen reads error codes, and zod stays out of its startup (bench:web).
 */
export interface ApiErrorBody {
  message: string;
  code: ErrorCode;
  errors: string[];
  validation_errors: Record<string, string[]>;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
