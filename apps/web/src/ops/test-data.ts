import type { CardOrder } from '@tipcard/shared/card-orders/schemas';
import type {
  AuditRecord,
  LedgerHealth,
  OperatorView,
  OpsBatch,
  OpsCardOrderRow,
  OpsPayment,
  OpsPayout,
  OpsTicketDetail,
  OpsTicketRow,
  OpsUser,
  OpsUserDetail,
  OpsVerificationDetail,
} from '@tipcard/shared/ops/schemas';
import { OPERATOR_ID } from './test-render.tsx';

/** Answers of the back office's API for page tests; each takes the fields a test cares about. */

export const USER_ID = '0b6f8f6e-3c1d-4a57-9d0c-6b1f2a3c4d5e';
export const TICKET_ID = '6c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
export const PAYMENT_ID = '7d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f60';
export const ORDER_ID = '8e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6071';
export const VERIFICATION_ID = '9f5a6b7c-8d9e-4f0a-9b2c-3d4e5f607182';
const CREATED = '2026-03-02T09:30:00Z';

export const opsUser = (overrides: Partial<OpsUser> = {}): OpsUser => ({
  id: USER_ID,
  phone: '+37120000000',
  created_at: CREATED,
  blocked: false,
  blocked_reason: null,
  ...overrides,
});

export const operatorRow = (overrides: Partial<OperatorView> = {}): OperatorView => ({
  id: OPERATOR_ID,
  email: 'admin@ops.example',
  role: 'admin',
  enrolled: true,
  disabled: false,
  locked_until: null,
  created_at: CREATED,
  ...overrides,
});

export const ticketRow = (overrides: Partial<OpsTicketRow> = {}): OpsTicketRow => ({
  id: TICKET_ID,
  title: 'Where is my payout?',
  status: 'open',
  created_at: CREATED,
  updated_at: CREATED,
  user_id: USER_ID,
  contact: null,
  phone: '+37120000000',
  ...overrides,
});

export const ticketDetail = (overrides: Partial<OpsTicketDetail> = {}): OpsTicketDetail => ({
  id: TICKET_ID,
  title: 'Where is my payout?',
  status: 'open',
  created_at: CREATED,
  updated_at: CREATED,
  user: opsUser(),
  contact: null,
  messages: [
    {
      id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
      author: 'user',
      message: 'I withdrew 20 EUR on Monday and it has not arrived.',
      created_at: CREATED,
    },
  ],
  attachments: [],
  ...overrides,
});

const cardOrder: CardOrder = {
  id: ORDER_ID,
  card_id: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  product: 'card',
  quantity: 2,
  status: 'placed',
  free: false,
  total_cents: 1_500,
  currency: 'EUR',
  country: 'LV',
  city: 'Rīga',
  address: 'Brīvības iela 1',
  apartment: null,
  zip: 'LV-1010',
  first_name: 'Anna',
  last_name: 'Ozola',
  additional_info: null,
  tracking_reference: null,
  checkout_url: null,
  created_at: CREATED,
  placed_at: CREATED,
  shipped_at: null,
};

export const cardOrderRow = (overrides: Partial<OpsCardOrderRow> = {}): OpsCardOrderRow => ({
  ...cardOrder,
  user_id: USER_ID,
  phone: '+37120000000',
  ...overrides,
});

export const payout = (overrides: Partial<OpsPayout> = {}): OpsPayout => ({
  id: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
  user_id: USER_ID,
  amount_cents: 2_000,
  fee_cents: 0,
  status: 'in_flight',
  rail: 'sepa_file',
  batch_id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  destination: 'LV80BANK0000435195001',
  holder: 'Anna Ozola',
  return_reason: null,
  created_at: CREATED,
  confirmed_at: CREATED,
  paid_at: null,
  returned_at: null,
  ...overrides,
});

export const batch = (overrides: Partial<OpsBatch> = {}): OpsBatch => ({
  id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  kind: 'sepa',
  message_id: 'TIPCARD-20260302-1',
  file_name: 'tipcard-sepa-20260302.xml',
  payout_count: 1,
  total_cents: 2_000,
  status: 'created',
  created_at: CREATED,
  sent_at: null,
  ...overrides,
});

export const CARD_ID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
export const REQUEST_ID = 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e';

export const payment = (overrides: Partial<OpsPayment> = {}): OpsPayment => ({
  id: PAYMENT_ID,
  reference: '7D3E4F5A',
  purpose: 'tip',
  status: 'succeeded',
  description: 'Tip to Anna',
  amount_cents: 5_000,
  total_cents: 5_000,
  fee_cents: 150,
  cover_fee: false,
  refunded_cents: 0,
  disputed_cents: 0,
  refundable_cents: 5_000,
  provider: 'sandbox',
  provider_ref: 'ch_sandbox_1',
  created_at: CREATED,
  subject_id: CARD_ID,
  card: { id: CARD_ID, user_id: USER_ID, public_name: 'Anna' },
  shares: [],
  refunds: [],
  events: [],
  messages: [],
  audit: [],
  ...overrides,
});

export const verificationDetail = (overrides: Partial<OpsVerificationDetail> = {}): OpsVerificationDetail => ({
  id: VERIFICATION_ID,
  user: opsUser(),
  kind: 'person',
  status: 'pending',
  details: { first_name: 'Anna', last_name: 'Liepa' },
  documents: ['document_front'],
  rejection_reason: null,
  created_at: CREATED,
  reviewed_at: null,
  ...overrides,
});

export const auditRecord = (overrides: Partial<AuditRecord> = {}): AuditRecord => ({
  id: 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a',
  operator_id: OPERATOR_ID,
  actor: 'admin@ops.example',
  action: 'operator.create',
  subject_type: 'operator',
  subject_id: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b',
  before: null,
  after: { role: 'finance' },
  ip: '127.0.0.1',
  created_at: CREATED,
  ...overrides,
});

export const userDetail = (overrides: Partial<OpsUserDetail> = {}): OpsUserDetail => ({
  user: opsUser(),
  cards: [],
  balances: { main_cents: 2_000, hold_cents: 0, debt_cents: 0 },
  history: [],
  payouts: [],
  verification: null,
  team: null,
  invoices: [],
  donations: [],
  tickets: [],
  ...overrides,
});

export const ledgerHealth = (overrides: Partial<LedgerHealth> = {}): LedgerHealth => ({
  checked_at: CREATED,
  invariant_problems: [],
  platform_balances: { provider_clearing: 10_000 },
  pending_payments: [],
  messages: { pending: 0, sending: 0, sent: 12, dead: 0 },
  history: [
    { day: '2026-03-01', snapshots: 24, invariant_problems: 0, pending_payments: 0, dead_messages: 0 },
    { day: '2026-03-02', snapshots: 0, invariant_problems: null, pending_payments: null, dead_messages: null },
  ],
  ...overrides,
});
