import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addPasskeyBody,
  auditQuery,
  auditRecordSchema,
  createBatchAnswer,
  createBatchBody,
  createdOperator,
  createOperatorBody,
  declineBody,
  documentFields,
  enrolBody,
  enrolmentInfo,
  ledgerHealthSchema,
  operatorSchema,
  opsBatchSchema,
  opsCardOrderMoveBody,
  opsCardOrderQuery,
  opsCardOrderRow,
  opsPaymentSchema,
  passkeyOptions,
  passkeySchema,
  passkeySignInBody,
  opsQueueCounts,
  opsSearchHit,
  opsSearchQuery,
  opsTicketDetail,
  opsTicketQuery,
  opsTicketReplyBody,
  opsTicketRow,
  OPS_REPLY_MAX_ATTACHMENTS,
  opsPayoutSchema,
  opsUserDetail,
  opsVenueDetail,
  opsUserSchema,
  opsVerificationDetail,
  payoutOutcomeBody,
  BANK_REPORT_MAX_CHARS,
  bankReportAnswer,
  bankReportBody,
  reasonBody,
  refundAnswer,
  refundBody,
  refundRequestSchema,
  signInAnswer,
  setUpBody,
  signInBody,
  updateOperatorBody,
  verificationDecisionBody,
  verificationQueueItem,
  type OperatorRole,
} from '@tipcard/shared/ops/schemas';
import { MAX_UPLOAD_BYTES } from '@tipcard/shared/constants';
import { cardOrderSchema } from '@tipcard/shared/card-orders/schemas';
import { AppError } from '../../lib/app-error.ts';
import { storedFileHeaders } from '../../lib/stored-file.ts';
import { data } from '../../lib/envelope.ts';
import type { AuditContext } from './ops-audit.ts';
import type { Operator, OpsAuthService } from './ops-auth.service.ts';
import type { OpsService } from './ops.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the ops guard; routes behind it can rely on it. */
    operator: Operator | null;
  }
}

const idParams = z.object({ id: z.uuid() });

const auditFilterOf = (query: z.output<typeof auditQuery>) => ({
  operatorId: query.operator_id,
  actor: query.actor || undefined,
  action: query.action || undefined,
  subjectType: query.subject_type,
  subjectId: query.subject_id || undefined,
  from: query.from ? new Date(query.from) : undefined,
  to: query.to ? new Date(query.to) : undefined,
});
const MINUTE = 60_000;
/** A reply with its files: each up to 10 MB as base64, plus the JSON around them. */
const REPLY_BODY_LIMIT = OPS_REPLY_MAX_ATTACHMENTS * Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 64 * 1024;

/**
 * Which roles may call what (admin may call everything). The table-driven test walks every route of this plugin
 * against it, so a route added without a line here fails the suite.
 */
export const OPS_ACCESS = {
  any: ['support', 'compliance', 'finance'],
  users: ['support', 'compliance', 'finance'],
  support: ['support'],
  compliance: ['compliance'],
  finance: ['finance'],
  audit: ['compliance'],
  admin: [],
} as const satisfies Record<string, readonly OperatorRole[]>;
export type OpsAccess = keyof typeof OPS_ACCESS;

/** The back office API under `/api/ops` (issue 15): its own sign-in and tokens, a role on every route. */
export const opsRoutes: FastifyPluginAsyncZod<{ opsAuth: OpsAuthService; ops: OpsService }> = async (app, { opsAuth, ops }) => {
  app.decorateRequest('operator', null);

  /** The guard: a live operator session (401 otherwise) with a role that may call this route (403 otherwise). */
  const guard = (access: OpsAccess) => ({
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      // Operator answers carry people's data: never kept by a browser or a proxy (as every signed-in answer).
      reply.header('cache-control', 'no-store');
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
      const operator = token ? await opsAuth.authenticate(token) : null;
      if (!operator) throw new AppError('unauthorized');
      const allowed: readonly OperatorRole[] = OPS_ACCESS[access];
      if (operator.role !== 'admin' && !allowed.includes(operator.role)) throw new AppError('forbidden');
      request.operator = operator;
    },
  });
  const audit = (request: FastifyRequest): AuditContext => ({
    actor: { operatorId: request.operator!.id, label: request.operator!.email },
    ip: request.ip,
  });
  const tags = ['ops'];
  const security = [{ opsBearer: [] }];
  const perIp = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `ops-${name}:ip:${request.ip}` });

  // ---- Sign-in and enrolment (no token yet) ----

  app.post(
    '/ops/sign-in',
    {
      preHandler: perIp('sign-in', 20),
      schema: {
        tags,
        summary: 'Operator sign-in: e-mail, password and TOTP code',
        body: signInBody,
        response: { 200: data(signInAnswer) },
      },
    },
    async (request) => ({ data: await opsAuth.signIn(request.body, request.ip) }),
  );

  // A passkey signs in on its own (decision 0050): a challenge first, then the browser's signed answer.
  app.post(
    '/ops/sign-in/passkey/options',
    {
      preHandler: perIp('passkey-options', 30),
      schema: {
        tags,
        summary: "A challenge for the browser's passkey prompt (five minutes, once)",
        response: { 200: data(passkeyOptions) },
      },
    },
    async () => ({ data: await opsAuth.passkeySignInOptions() }),
  );

  app.post(
    '/ops/sign-in/passkey',
    {
      preHandler: perIp('sign-in', 20),
      schema: {
        tags,
        summary: 'Operator sign-in with a passkey (user verification required); the same session as password and code',
        body: passkeySignInBody,
        response: { 200: data(signInAnswer) },
      },
    },
    async (request) => ({
      data: await opsAuth.passkeySignIn(request.body.response as unknown as AuthenticationResponseJSON, request.ip),
    }),
  );

  const tokenParams = z.object({ token: z.string().min(20).max(100) });
  app.get(
    '/ops/enrolment/:token',
    {
      preHandler: perIp('enrolment', 30),
      schema: {
        tags,
        summary: 'The enrolment link: e-mail and the TOTP secret as a QR code',
        params: tokenParams,
        response: { 200: data(enrolmentInfo) },
      },
    },
    async (request) => ({ data: await opsAuth.enrolmentInfo(request.params.token) }),
  );

  app.post(
    '/ops/enrolment/:token',
    {
      preHandler: perIp('enrolment', 30),
      schema: {
        tags,
        summary: 'Set the password and confirm the authenticator with a code',
        params: tokenParams,
        body: enrolBody,
        response: { 200: data(z.object({ email: z.string() })) },
      },
    },
    async (request) => ({ data: await opsAuth.enrol(request.params.token, request.body, request.ip) }),
  );

  // The first admin, by the link the server prints at start while no operator exists.
  app.get(
    '/ops/setup/:token',
    {
      preHandler: perIp('setup', 30),
      schema: {
        tags,
        summary: 'Whether the first-admin set-up link still opens',
        params: tokenParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await opsAuth.checkSetup(request.params.token);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/ops/setup/:token',
    {
      preHandler: perIp('setup', 30),
      schema: {
        tags,
        summary: 'Create the first admin; answers their one-time enrolment link',
        params: tokenParams,
        body: setUpBody,
        response: { 201: data(createdOperator) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await opsAuth.setUpFirstAdmin(request.params.token, request.body.email, request.ip) }),
  );

  // ---- Session ----

  app.get(
    '/ops/me',
    {
      ...guard('any'),
      schema: {
        tags,
        security,
        summary: 'The signed-in operator',
        response: { 200: data(z.object({ id: z.uuid(), email: z.string(), role: operatorSchema.shape.role })) },
      },
    },
    async (request) => ({ data: { id: request.operator!.id, email: request.operator!.email, role: request.operator!.role } }),
  );

  app.post(
    '/ops/sign-out',
    {
      ...guard('any'),
      schema: {
        tags,
        security,
        summary: 'End this operator session',
        response: { 200: data(z.object({ signed_out: z.literal(true) })) },
      },
    },
    async (request) => {
      await opsAuth.signOut(request.operator!);
      return { data: { signed_out: true as const } };
    },
  );

  // ---- The operator's own passkeys ----

  app.get(
    '/ops/passkeys',
    {
      ...guard('any'),
      schema: { tags, security, summary: "The signed-in operator's passkeys", response: { 200: data(z.array(passkeySchema)) } },
    },
    async (request) => ({ data: await opsAuth.listPasskeys(request.operator!) }),
  );

  app.post(
    '/ops/passkeys/options',
    {
      ...guard('any'),
      schema: {
        tags,
        security,
        summary: "A challenge for the browser's new-passkey prompt, bound to this session (five minutes, once)",
        response: { 200: data(passkeyOptions) },
      },
    },
    async (request) => ({ data: await opsAuth.passkeyRegistrationOptions(request.operator!) }),
  );

  app.post(
    '/ops/passkeys',
    {
      ...guard('any'),
      schema: {
        tags,
        security,
        summary: 'Add the passkey the browser made for this session’s challenge, with a name',
        body: addPasskeyBody,
        response: { 201: data(passkeySchema) },
      },
    },
    async (request, reply) => {
      const { name, response } = request.body;
      const added = await opsAuth.addPasskey(
        request.operator!,
        { name, response: response as unknown as RegistrationResponseJSON },
        audit(request),
      );
      return reply.status(201).send({ data: added });
    },
  );

  app.delete(
    '/ops/passkeys/:id',
    {
      ...guard('any'),
      schema: {
        tags,
        security,
        summary: "Remove one of the operator's passkeys; their other sessions end",
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await opsAuth.removePasskey(request.operator!, request.params.id, audit(request));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/ops/queues',
    {
      ...guard('any'),
      schema: {
        tags,
        security,
        summary: "The work waiting, for the menu's badges: a count per queue the role may see, null for the others",
        response: { 200: data(opsQueueCounts) },
      },
    },
    async (request) => ({ data: await ops.queueCounts(request.operator!.role) }),
  );

  // ---- Operators and audit (admin) ----

  app.get(
    '/ops/operators',
    { ...guard('admin'), schema: { tags, security, summary: 'Operators', response: { 200: data(z.array(operatorSchema)) } } },
    async () => ({ data: await opsAuth.listOperators() }),
  );

  app.post(
    '/ops/operators',
    {
      ...guard('admin'),
      schema: {
        tags,
        security,
        summary: 'Create an operator; answers the one-time enrolment link',
        body: createOperatorBody,
        response: { 201: data(createdOperator) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await opsAuth.createOperator(request.body, audit(request)) }),
  );

  app.patch(
    '/ops/operators/:id',
    {
      ...guard('admin'),
      schema: {
        tags,
        security,
        summary: "Change an operator's role, or disable or re-enable them; ends their sessions",
        params: idParams,
        body: updateOperatorBody,
        response: { 200: data(operatorSchema) },
      },
    },
    async (request) => ({ data: await opsAuth.updateOperator(request.params.id, request.body, audit(request)) }),
  );

  app.post(
    '/ops/operators/:id/reset-sign-in',
    {
      ...guard('admin'),
      schema: {
        tags,
        security,
        summary: "Reset an operator's password and authenticator; e-mails a new enrolment link and ends their sessions",
        params: idParams,
        response: { 200: data(createdOperator) },
      },
    },
    async (request) => ({ data: await opsAuth.resetSignIn(request.params.id, audit(request)) }),
  );

  app.get(
    '/ops/audit',
    {
      ...guard('audit'),
      schema: {
        tags,
        security,
        summary: 'The audit log, newest first, filtered',
        querystring: auditQuery,
        response: { 200: data(z.array(auditRecordSchema)) },
      },
    },
    async (request) => ({ data: await ops.listAudit(auditFilterOf(request.query)) }),
  );

  app.get(
    '/ops/audit/export',
    {
      ...guard('audit'),
      schema: {
        tags,
        security,
        summary: 'The audit log as CSV, with the same filters (up to 10,000 records); the export is itself audited',
        querystring: auditQuery,
      },
    },
    async (request, reply) => {
      const file = await ops.exportAudit(auditFilterOf(request.query), audit(request));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .send(file.content);
    },
  );

  // ---- Search and users ----

  app.get(
    '/ops/search',
    {
      ...guard('users'),
      schema: {
        tags,
        security,
        summary:
          "One search: a payment's short reference, an invoice or order number, a phone in any format, a donor's e-mail, a payout account's last digits, a card id or name",
        querystring: opsSearchQuery,
        response: { 200: data(z.array(opsSearchHit)) },
      },
    },
    async (request) => ({ data: await ops.search(request.query.q, request.operator!.id) }),
  );

  app.get(
    '/ops/users',
    {
      ...guard('users'),
      schema: {
        tags,
        security,
        summary: 'Find users by phone, name, user, card or payment id',
        querystring: z.object({ q: z.string().max(100) }),
        response: { 200: data(z.array(opsUserSchema)) },
      },
    },
    async (request) => ({ data: await ops.searchUsers(request.query.q, request.operator!.id) }),
  );

  app.get(
    '/ops/users/:id',
    {
      ...guard('users'),
      schema: {
        tags,
        security,
        summary: "A user's profile, cards, balances, history, payouts and verification",
        params: idParams,
        response: { 200: data(opsUserDetail) },
      },
    },
    async (request) => ({ data: await ops.userDetail(request.params.id) }),
  );

  app.get(
    '/ops/venues/:id',
    {
      ...guard('users'),
      schema: {
        tags,
        security,
        summary:
          'A venue (workplace): its admins, venue card and percentages between teams, tipping policy versions and teams, with admins, members, split rules and periods',
        params: idParams,
        response: { 200: data(opsVenueDetail) },
      },
    },
    async (request) => ({ data: await ops.venueDetail(request.params.id, request.operator!.id) }),
  );

  for (const action of ['block', 'unblock'] as const) {
    app.post(
      `/ops/users/:id/${action}`,
      {
        ...guard('compliance'),
        schema: {
          tags,
          security,
          summary: `${action === 'block' ? 'Block' : 'Unblock'} a user, with a reason`,
          params: idParams,
          body: reasonBody,
          response: { 200: data(opsUserSchema) },
        },
      },
      async (request) => ({
        data: await (action === 'block' ? ops.blockUser : ops.unblockUser)(
          audit(request),
          request.params.id,
          request.body.reason,
        ),
      }),
    );
  }

  // ---- Verification review ----

  app.get(
    '/ops/verifications',
    {
      ...guard('compliance'),
      schema: {
        tags,
        security,
        summary: 'Pending verification requests, oldest first',
        response: { 200: data(z.array(verificationQueueItem)) },
      },
    },
    async () => ({ data: await ops.listPendingVerifications() }),
  );

  app.get(
    '/ops/verifications/:id',
    {
      ...guard('compliance'),
      schema: {
        tags,
        security,
        summary: 'One verification request',
        params: idParams,
        response: { 200: data(opsVerificationDetail) },
      },
    },
    async (request) => ({ data: await ops.verificationDetail(request.params.id) }),
  );

  app.get(
    '/ops/verifications/:id/documents/:field',
    {
      ...guard('compliance'),
      schema: {
        tags,
        security,
        summary: 'A submitted document (PDF, JPEG or PNG, typed by content at upload)',
        params: idParams.extend({ field: z.enum(documentFields) }),
      },
    },
    async (request, reply) => {
      const file = await ops.verificationDocument(request.params.id, request.params.field);
      // Served as data, never as a page of ours: no script can run in it, nothing sniffs it into HTML.
      return reply
        .header('content-type', file.mime)
        .header('content-disposition', 'inline')
        .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'")
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  );

  app.post(
    '/ops/verifications/:id/decision',
    {
      ...guard('compliance'),
      schema: {
        tags,
        security,
        summary: 'Approve, or reject with a reason the user sees (the user is told by SMS)',
        params: idParams,
        body: verificationDecisionBody,
        response: { 200: data(z.object({ status: z.string() })) },
      },
    },
    async (request) => {
      const body = request.body;
      const decided = await ops.decideVerification(
        audit(request),
        request.params.id,
        body.decision,
        body.decision === 'reject' ? body.reason : null,
      );
      return { data: { status: decided.status } };
    },
  );

  // ---- Payouts ----

  app.get(
    '/ops/payouts',
    {
      ...guard('finance'),
      schema: {
        tags,
        security,
        summary: 'Payouts by status, newest first',
        querystring: z.object({ status: opsPayoutSchema.shape.status.optional() }),
        response: { 200: data(z.array(opsPayoutSchema)) },
      },
    },
    async (request) => ({ data: await ops.listPayouts(request.query.status) }),
  );

  app.get(
    '/ops/payout-batches',
    {
      ...guard('finance'),
      schema: { tags, security, summary: 'Bank files, newest first', response: { 200: data(z.array(opsBatchSchema)) } },
    },
    async () => ({ data: await ops.listBatches() }),
  );

  app.post(
    '/ops/payout-batches',
    {
      ...guard('finance'),
      schema: {
        tags,
        security,
        summary: 'Check the ledger, then make a SEPA or UK file of every confirmed payout up to now',
        body: createBatchBody,
        response: { 200: data(createBatchAnswer) },
      },
    },
    async (request) => ({ data: await ops.createBatch(audit(request), request.body.kind) }),
  );

  app.get(
    '/ops/payout-batches/:id',
    {
      ...guard('finance'),
      schema: {
        tags,
        security,
        summary: 'A bank file and its payouts',
        params: idParams,
        response: { 200: data(opsBatchSchema.extend({ payouts: z.array(opsPayoutSchema) })) },
      },
    },
    async (request) => ({ data: await ops.batchDetail(request.params.id) }),
  );

  app.get(
    '/ops/payout-batches/:id/file',
    { ...guard('finance'), schema: { tags, security, summary: 'Download the pain.001 XML or UK CSV file', params: idParams } },
    async (request, reply) => {
      const file = await ops.batchFile(request.params.id);
      return reply
        .header('content-type', file.kind === 'sepa' ? 'application/xml; charset=utf-8' : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  );

  app.post(
    '/ops/payout-batches/:id/paid',
    {
      ...guard('finance'),
      schema: {
        tags,
        security,
        summary: 'The bank paid a sent file: marks each of its payouts still in flight paid; answers how many',
        params: idParams,
        response: { 200: data(z.object({ marked: z.number().int() })) },
      },
    },
    async (request) => ({ data: await ops.markBatchPaid(audit(request), request.params.id) }),
  );

  // The bank's status report (docs/decisions/0049): previewed, then imported from the same file.
  const bankReport = {
    ...guard('finance'),
    // The file's text as JSON: its escapes can grow it, never past twice its size.
    bodyLimit: 2 * BANK_REPORT_MAX_CHARS + 64 * 1024,
  };
  app.post(
    '/ops/payout-batches/:id/bank-report/preview',
    {
      ...bankReport,
      schema: {
        tags,
        security,
        summary: "What importing the bank's pain.002 or camt.054 report would mark, payout by payout; nothing changes",
        params: idParams,
        body: bankReportBody,
        response: { 200: data(bankReportAnswer) },
      },
    },
    async (request) => ({ data: await ops.previewBankReport(request.params.id, request.body.file) }),
  );

  app.post(
    '/ops/payout-batches/:id/bank-report',
    {
      ...bankReport,
      schema: {
        tags,
        security,
        summary:
          "Import the bank's report: each payout it settles marked paid or returned once; the same file again changes nothing",
        params: idParams,
        body: bankReportBody,
        response: { 200: data(bankReportAnswer) },
      },
    },
    async (request) => ({ data: await ops.importBankReport(audit(request), request.params.id, request.body.file) }),
  );

  app.post(
    '/ops/payout-batches/:id/sent',
    {
      ...guard('finance'),
      schema: {
        tags,
        security,
        summary: 'Mark a file as uploaded to the bank',
        params: idParams,
        response: { 200: data(opsBatchSchema) },
      },
    },
    async (request) => ({ data: await ops.markBatchSent(audit(request), request.params.id) }),
  );

  app.post(
    '/ops/payouts/:id/outcome',
    {
      ...guard('finance'),
      schema: {
        tags,
        security,
        summary: "The bank's answer: paid, or returned with an ISO reason (amount and fee back to the user)",
        params: idParams,
        body: payoutOutcomeBody,
        response: { 200: data(z.object({ id: z.uuid(), status: z.enum(['paid', 'returned']) })) },
      },
    },
    async (request) => {
      const body = request.body;
      return {
        data: await ops.markPayout(
          audit(request),
          request.params.id,
          body.outcome,
          body.outcome === 'returned' ? body.reason_code : undefined,
        ),
      };
    },
  );

  // ---- Refunds and ledger health ----

  app.get(
    '/ops/payments/:id',
    {
      ...guard('users'),
      schema: {
        tags,
        security,
        summary: 'A payment and its story: shares, refunds, disputes, provider events, messages and audit records',
        params: idParams,
        response: { 200: data(opsPaymentSchema) },
      },
    },
    async (request) => ({ data: await ops.paymentDetail(request.params.id) }),
  );

  app.post(
    '/ops/payments/:id/refunds',
    {
      ...guard('finance'),
      schema: {
        tags,
        security,
        summary: 'Refund a payment in full or in part; above REFUND_APPROVAL_CENTS it waits for a second finance operator',
        params: idParams,
        headers: z.object({ 'idempotency-key': z.string().min(8).max(200) }),
        body: refundBody,
        response: { 200: data(refundAnswer) },
      },
    },
    async (request) => ({
      data: await ops.requestRefund(audit(request), {
        paymentId: request.params.id,
        amountCents: request.body.amount_cents,
        reason: request.body.reason,
        idempotencyKey: request.headers['idempotency-key'],
      }),
    }),
  );

  app.get(
    '/ops/refund-requests',
    {
      ...guard('finance'),
      schema: {
        tags,
        security,
        summary: 'Refunds waiting for a second approval',
        response: { 200: data(z.array(refundRequestSchema)) },
      },
    },
    async () => ({ data: await ops.listRefundRequests() }),
  );

  app.post(
    '/ops/refund-requests/:id/approve',
    {
      ...guard('finance'),
      schema: {
        tags,
        security,
        summary: "Approve another finance operator's refund; it is made at once",
        params: idParams,
        response: { 200: data(refundAnswer) },
      },
    },
    async (request) => ({ data: await ops.approveRefund(audit(request), request.params.id) }),
  );

  app.post(
    '/ops/refund-requests/:id/decline',
    {
      ...guard('finance'),
      schema: {
        tags,
        security,
        summary: 'Decline a refund waiting for approval, with a reason kept in the audit log; nothing is refunded',
        params: idParams,
        body: declineBody,
        response: { 200: data(refundAnswer) },
      },
    },
    async (request) => ({ data: await ops.declineRefund(audit(request), request.params.id, request.body.reason) }),
  );

  app.get(
    '/ops/ledger-health',
    {
      ...guard('finance'),
      schema: {
        tags,
        security,
        summary: 'Invariants, platform balances, payments pending past reconciliation, messages',
        response: { 200: data(ledgerHealthSchema) },
      },
    },
    async () => ({ data: await ops.ledgerHealth() }),
  );

  // ---- Support inbox ----

  app.get(
    '/ops/tickets',
    {
      ...guard('support'),
      schema: {
        tags,
        security,
        summary: 'Tickets by status, the longest without activity first',
        querystring: opsTicketQuery,
        response: { 200: data(z.array(opsTicketRow)) },
      },
    },
    async (request) => ({ data: await ops.listTickets(request.query.status) }),
  );

  app.get(
    '/ops/tickets/:id',
    {
      ...guard('support'),
      schema: {
        tags,
        security,
        summary: 'A ticket: its conversation, attachments and user',
        params: idParams,
        response: { 200: data(opsTicketDetail) },
      },
    },
    async (request) => ({ data: await ops.ticketDetail(request.params.id) }),
  );

  app.get(
    '/ops/tickets/:id/attachments/:attachmentId',
    {
      ...guard('support'),
      schema: { tags, security, summary: "An attachment's file", params: idParams.extend({ attachmentId: z.uuid() }) },
    },
    async (request, reply) => {
      const file = await ops.ticketAttachment(request.params.id, request.params.attachmentId);
      // As on the user's side: a download, never a page of ours, its type never sniffed.
      return storedFileHeaders(reply, file.name).type(file.mime).send(file.content);
    },
  );

  app.post(
    '/ops/tickets/:id/reply',
    {
      ...guard('support'),
      bodyLimit: REPLY_BODY_LIMIT,
      schema: {
        tags,
        security,
        summary: 'Answer a ticket, with up to 3 files (PDF, JPEG, PNG or .edoc): it waits for the user, who is told by SMS',
        params: idParams,
        body: opsTicketReplyBody,
        response: { 200: data(opsTicketDetail) },
      },
    },
    async (request) => ({
      data: await ops.replyToTicket(audit(request), request.params.id, request.body.message, request.body.attachments),
    }),
  );

  for (const action of ['close', 'reopen'] as const) {
    app.post(
      `/ops/tickets/:id/${action}`,
      {
        ...guard('support'),
        schema: {
          tags,
          security,
          summary: action === 'close' ? 'Close a ticket' : 'Open a closed ticket again',
          params: idParams,
          response: { 200: data(opsTicketDetail) },
        },
      },
      async (request) => ({
        data: await (action === 'close' ? ops.closeTicket : ops.reopenTicket)(audit(request), request.params.id),
      }),
    );
  }

  // ---- Card orders ----

  app.get(
    '/ops/card-orders',
    {
      ...guard('support'),
      schema: {
        tags,
        security,
        summary: 'Card orders by status, the oldest first',
        querystring: opsCardOrderQuery,
        response: { 200: data(z.array(opsCardOrderRow)) },
      },
    },
    async (request) => ({ data: await ops.listCardOrders(request.query.status) }),
  );

  app.get(
    '/ops/card-orders/:id/print-file',
    { ...guard('support'), schema: { tags, security, summary: "The order's print PDF for the printer", params: idParams } },
    async (request, reply) => {
      const pdf = await ops.cardOrderPrintFile(request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="tipcard-order-${request.params.id.slice(0, 8)}.pdf"`)
        .send(pdf);
    },
  );

  app.post(
    '/ops/card-orders/:id/status',
    {
      ...guard('support'),
      schema: {
        tags,
        security,
        summary: 'Move an order to in production, shipped (with a tracking reference) or delivered',
        params: idParams,
        body: opsCardOrderMoveBody,
        response: { 200: data(cardOrderSchema) },
      },
    },
    async (request) => {
      const body = request.body;
      return {
        data: await ops.moveCardOrder(
          audit(request),
          request.params.id,
          body.status,
          body.status === 'shipped' ? body.tracking_reference : undefined,
        ),
      };
    },
  );

  app.post(
    '/ops/card-orders/:id/cancel',
    {
      ...guard('support'),
      schema: {
        tags,
        security,
        summary: 'Cancel an order not yet shipped; a paid one is refunded in full',
        params: idParams,
        response: { 200: data(cardOrderSchema) },
      },
    },
    async (request) => ({ data: await ops.cancelCardOrder(audit(request), request.params.id) }),
  );
};
