import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  grantAdminBody,
  memberRoleBody,
  rulePreviewBody,
  rulePreviewSchema,
  shiftBody,
  shiftImportBody,
  shiftImportSchema,
  shiftPatchBody,
  shiftSchema,
  shiftsQuery,
  splitRuleBody,
  splitRulesSchema,
  tipShareSchema,
  joinRequestSchema,
  ownJoinRequestSchema,
  membershipPeriodSchema,
  periodAdjustmentBody,
  periodAdjustmentResultSchema,
  periodAnswerBody,
  periodMonth,
  periodObjectionBody,
  teamPeriodSchema,
  publicTeamSchema,
  statisticsQuery,
  teamPatchBody,
  teamSchema,
  teamStatisticsSchema,
  tipRecordsQuery,
  tippingPolicyBody,
  tippingPolicySchema,
  venueAdminBody,
  venueAdminSchema,
  venueTeamBody,
  workplaceBody,
  workplacePatchBody,
  workplaceSchema,
} from '@tipcard/shared/teams/schemas';
import { data } from '../../lib/envelope.ts';
import { acceptedLocale } from '../../lib/i18n.ts';
import type { TeamsService, TipRecordsFile } from './teams.service.ts';

const clientParams = z.object({ clientId: z.uuid() });
const teamParams = z.object({ teamId: z.uuid() });
const workplaceParams = z.object({ workplaceId: z.uuid() });
const venueAdminParams = z.object({ workplaceId: z.uuid(), userId: z.uuid() });
const requestParams = z.object({ teamId: z.uuid(), requestId: z.uuid() });
const memberParams = z.object({ teamId: z.uuid(), userId: z.uuid() });
const shiftParams = z.object({ teamId: z.uuid(), shiftId: z.uuid() });
const periodParams = z.object({ teamId: z.uuid(), month: periodMonth });
const objectionParams = periodParams.extend({ objectionId: z.uuid() });
const done = data(z.object({ done: z.literal(true) }));
const MINUTE = 60_000;

/** Workplaces and teams (DESIGN "Calls the spec does not show"); the rules live in the service. */
export const teamsRoutes: FastifyPluginAsyncZod<{ teams: TeamsService }> = async (app, { teams }) => {
  const perUser = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:user:${request.userId || request.ip}` });
  const common = { onRequest: app.authenticate } as const;
  const secured = { tags: ['teams'], security: [{ bearer: [] }] };

  app.get(
    '/clients/:clientId/workplace',
    {
      ...common,
      schema: {
        ...secured,
        summary: "The workplace of the user's team (null when in none)",
        params: clientParams,
        response: { 200: data(workplaceSchema.nullable()) },
      },
    },
    async (request) => ({ data: await teams.workplace(request.userId, request.params.clientId) }),
  );

  app.post(
    '/clients/:clientId/workplace',
    {
      ...common,
      preHandler: perUser('workplace-create', 10),
      schema: {
        ...secured,
        summary: 'Create a workplace, its team (you are admin) and the team card',
        params: clientParams,
        body: workplaceBody,
        response: { 201: data(workplaceSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await teams.createWorkplace(request.userId, request.params.clientId, request.body) }),
  );

  app.patch(
    '/clients/:clientId/workplace',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Change the workplace (admin)',
        params: clientParams,
        body: workplacePatchBody,
        response: { 200: data(workplaceSchema) },
      },
    },
    async (request) => ({ data: await teams.updateWorkplace(request.userId, request.params.clientId, request.body) }),
  );

  app.post(
    '/workplaces/:workplaceId/teams',
    {
      ...common,
      preHandler: perUser('venue-team-create', 10),
      schema: {
        ...secured,
        summary: 'Add a team, with its own team card, to the venue (venue admin)',
        params: workplaceParams,
        body: venueTeamBody,
        response: { 201: data(teamSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await teams.addVenueTeam(request.userId, request.params.workplaceId, request.body.title) }),
  );

  app.post(
    '/workplaces/:workplaceId/admins',
    {
      ...common,
      preHandler: perUser('venue-admin', 20),
      schema: {
        ...secured,
        summary: "Add a venue admin, a member of one of the venue's teams (venue admin)",
        params: workplaceParams,
        body: venueAdminBody,
        response: { 200: data(z.array(venueAdminSchema)) },
      },
    },
    async (request) => ({
      data: await teams.addVenueAdmin(request.userId, request.params.workplaceId, request.body.user_id),
    }),
  );

  app.delete(
    '/workplaces/:workplaceId/admins/:userId',
    {
      ...common,
      preHandler: perUser('venue-admin', 20),
      schema: {
        ...secured,
        summary: 'Remove a venue admin, never the last (venue admin)',
        params: venueAdminParams,
        response: { 200: data(z.array(venueAdminSchema)) },
      },
    },
    async (request) => ({
      data: await teams.removeVenueAdmin(request.userId, request.params.workplaceId, request.params.userId),
    }),
  );

  app.get(
    '/teams/:teamId',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'The team, its members and (admin) pending requests',
        params: teamParams,
        response: { 200: data(teamSchema) },
      },
    },
    async (request) => ({ data: await teams.team(request.userId, request.params.teamId) }),
  );

  app.patch(
    '/teams/:teamId',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Rename the team (admin)',
        params: teamParams,
        body: teamPatchBody,
        response: { 200: data(teamSchema) },
      },
    },
    async (request) => ({ data: await teams.renameTeam(request.userId, request.params.teamId, request.body.title) }),
  );

  app.get(
    '/public/teams/:teamId',
    {
      onRequest: app.rateLimit({ max: 120, timeWindow: MINUTE, keyGenerator: (request) => `public-team:ip:${request.ip}` }),
      schema: {
        tags: ['teams'],
        summary: 'What the invite link shows',
        params: teamParams,
        response: { 200: data(publicTeamSchema) },
      },
    },
    async (request) => ({ data: await teams.publicTeam(request.params.teamId) }),
  );

  app.post(
    '/teams/:teamId/requests',
    {
      ...common,
      preHandler: perUser('team-request', 20),
      schema: { ...secured, summary: 'Ask to join the team', params: teamParams, response: { 201: data(joinRequestSchema) } },
    },
    async (request, reply) => reply.status(201).send({ data: await teams.requestToJoin(request.userId, request.params.teamId) }),
  );

  app.post(
    '/teams/:teamId/requests/:requestId/approve',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Approve a join request (admin)',
        params: requestParams,
        response: { 200: data(joinRequestSchema) },
      },
    },
    async (request) => ({ data: await teams.approve(request.userId, request.params.teamId, request.params.requestId) }),
  );

  app.post(
    '/teams/:teamId/requests/:requestId/decline',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Decline a join request (admin)',
        params: requestParams,
        response: { 200: data(joinRequestSchema) },
      },
    },
    async (request) => ({ data: await teams.decline(request.userId, request.params.teamId, request.params.requestId) }),
  );

  app.delete(
    '/teams/:teamId/requests/:requestId',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Withdraw my pending join request',
        params: requestParams,
        response: { 200: data(joinRequestSchema) },
      },
    },
    async (request) => ({ data: await teams.withdraw(request.userId, request.params.teamId, request.params.requestId) }),
  );

  app.get(
    '/clients/:clientId/team-requests',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'My join requests still waiting for an admin',
        params: clientParams,
        response: { 200: data(z.array(ownJoinRequestSchema)) },
      },
    },
    async (request) => ({ data: await teams.ownRequests(request.userId, request.params.clientId) }),
  );

  app.delete(
    '/teams/:teamId/members/:userId',
    { ...common, schema: { ...secured, summary: 'Remove a member (admin)', params: memberParams, response: { 200: done } } },
    async (request) => {
      await teams.removeMember(request.userId, request.params.teamId, request.params.userId);
      return { data: { done: true as const } };
    },
  );

  app.post(
    '/teams/:teamId/leave',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Leave the team (the admin hands admin over first)',
        params: teamParams,
        response: { 200: done },
      },
    },
    async (request) => {
      await teams.leave(request.userId, request.params.teamId);
      return { data: { done: true as const } };
    },
  );

  app.post(
    '/teams/:teamId/admin',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Hand admin access and the team card over to a member (admin)',
        params: teamParams,
        body: grantAdminBody,
        response: { 200: data(teamSchema) },
      },
    },
    async (request) => ({ data: await teams.grantAdmin(request.userId, request.params.teamId, request.body.user_id) }),
  );

  app.get(
    '/teams/:teamId/history',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Work history: membership periods, newest first',
        params: teamParams,
        response: { 200: data(z.array(membershipPeriodSchema)) },
      },
    },
    async (request) => ({ data: await teams.history(request.userId, request.params.teamId) }),
  );

  app.get(
    '/teams/:teamId/statistics',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Tips through the team card per member in [from, to)',
        params: teamParams,
        querystring: statisticsQuery,
        response: { 200: data(teamStatisticsSchema) },
      },
    },
    async (request) => ({
      data: await teams.statistics(
        request.userId,
        request.params.teamId,
        new Date(request.query.from),
        new Date(request.query.to),
      ),
    }),
  );

  const sendRecords = (reply: FastifyReply, file: TipRecordsFile) =>
    reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(file.body);

  app.get(
    '/clients/:clientId/tip-records',
    {
      ...common,
      preHandler: perUser('tip-records', 30),
      schema: {
        ...secured,
        summary: 'The user’s own tip allocation records in [from, to) from every team they were in, as CSV or PDF',
        params: clientParams,
        querystring: tipRecordsQuery,
      },
    },
    async (request, reply) =>
      sendRecords(
        reply,
        await teams.ownTipRecords(request.userId, request.params.clientId, request.query, acceptedLocale(request)),
      ),
  );

  app.get(
    '/teams/:teamId/tip-records',
    {
      ...common,
      preHandler: perUser('tip-records', 30),
      schema: {
        ...secured,
        summary: 'Every member’s tip allocation records of the team in [from, to), as CSV or PDF (admin)',
        params: teamParams,
        querystring: tipRecordsQuery,
      },
    },
    async (request, reply) =>
      sendRecords(
        reply,
        await teams.teamTipRecords(request.userId, request.params.teamId, request.query, acceptedLocale(request)),
      ),
  );

  app.get(
    '/teams/:teamId/policy',
    {
      ...common,
      schema: {
        ...secured,
        summary:
          'The venue’s tipping policy in force, the member’s confirmation of it (every member’s for the admin) and the template',
        params: teamParams,
        response: { 200: data(tippingPolicySchema) },
      },
    },
    async (request) => ({ data: await teams.policy(request.userId, request.params.teamId, acceptedLocale(request)) }),
  );

  app.post(
    '/teams/:teamId/policy',
    {
      ...common,
      preHandler: perUser('tipping-policy', 10),
      schema: {
        ...secured,
        summary: 'Publish a new version of the tipping policy; every member is told (admin)',
        params: teamParams,
        body: tippingPolicyBody,
        response: { 201: data(tippingPolicySchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await teams.publishPolicy(request.userId, request.params.teamId, request.body.text, acceptedLocale(request)),
      }),
  );

  app.post(
    '/teams/:teamId/policy/:version/read',
    {
      ...common,
      preHandler: perUser('tipping-policy-read', 30),
      schema: {
        ...secured,
        summary: 'Confirm reading the version of the tipping policy in force (the first confirmation is kept)',
        params: z.object({ teamId: z.uuid(), version: z.coerce.number().int().min(1).max(1_000_000) }),
        response: { 200: data(tippingPolicySchema) },
      },
    },
    async (request) => ({
      data: await teams.confirmPolicyRead(request.userId, request.params.teamId, request.params.version, acceptedLocale(request)),
    }),
  );

  app.get(
    '/teams/:teamId/rules',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'The split rule in force and its earlier versions',
        params: teamParams,
        response: { 200: data(splitRulesSchema) },
      },
    },
    async (request) => ({ data: await teams.rules(request.userId, request.params.teamId) }),
  );

  app.post(
    '/teams/:teamId/rules',
    {
      ...common,
      preHandler: perUser('team-rule', 30),
      schema: {
        ...secured,
        summary: 'Save a new version of the split rule, in force from now (admin)',
        params: teamParams,
        body: splitRuleBody,
        response: { 201: data(splitRulesSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await teams.setRule(request.userId, request.params.teamId, request.body) }),
  );

  app.post(
    '/teams/:teamId/rules/preview',
    {
      ...common,
      preHandler: perUser('team-rule-preview', 30),
      schema: {
        ...secured,
        summary: "A candidate rule on the team's tips of a past period, against what each member received (admin)",
        params: teamParams,
        body: rulePreviewBody,
        response: { 200: data(rulePreviewSchema) },
      },
    },
    async (request) => ({ data: await teams.previewRule(request.userId, request.params.teamId, request.body) }),
  );

  app.patch(
    '/teams/:teamId/members/:userId',
    {
      ...common,
      schema: {
        ...secured,
        summary: "Set a member's role, which the points rule prices (admin)",
        params: memberParams,
        body: memberRoleBody,
        response: { 200: data(teamSchema) },
      },
    },
    async (request) => ({
      data: await teams.setRole(request.userId, request.params.teamId, request.params.userId, request.body.role),
    }),
  );

  app.get(
    '/teams/:teamId/shifts',
    {
      ...common,
      schema: {
        ...secured,
        summary: "Shifts overlapping [from, to): everyone's for the admin, your own otherwise",
        params: teamParams,
        querystring: shiftsQuery,
        response: { 200: data(z.array(shiftSchema)) },
      },
    },
    async (request) => ({
      data: await teams.shifts(request.userId, request.params.teamId, new Date(request.query.from), new Date(request.query.to)),
    }),
  );

  app.post(
    '/teams/:teamId/shifts/clock-in',
    {
      ...common,
      preHandler: perUser('team-clock', 30),
      schema: { ...secured, summary: 'Start your shift now', params: teamParams, response: { 201: data(shiftSchema) } },
    },
    async (request, reply) => reply.status(201).send({ data: await teams.clockIn(request.userId, request.params.teamId) }),
  );

  app.post(
    '/teams/:teamId/shifts/clock-out',
    {
      ...common,
      preHandler: perUser('team-clock', 30),
      schema: { ...secured, summary: 'End your shift now', params: teamParams, response: { 200: data(shiftSchema) } },
    },
    async (request) => ({ data: await teams.clockOut(request.userId, request.params.teamId) }),
  );

  app.post(
    '/teams/:teamId/shifts',
    {
      ...common,
      preHandler: perUser('team-shift', 120),
      schema: {
        ...secured,
        summary: "Enter a member's shift (admin)",
        params: teamParams,
        body: shiftBody,
        response: { 201: data(shiftSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await teams.addShift(request.userId, request.params.teamId, request.body) }),
  );

  app.patch(
    '/teams/:teamId/shifts/:shiftId',
    {
      ...common,
      preHandler: perUser('team-shift', 120),
      schema: {
        ...secured,
        summary: 'Correct a shift; tips already credited keep their shares (admin)',
        params: shiftParams,
        body: shiftPatchBody,
        response: { 200: data(shiftSchema) },
      },
    },
    async (request) => ({
      data: await teams.correctShift(request.userId, request.params.teamId, request.params.shiftId, request.body),
    }),
  );

  app.post(
    '/teams/:teamId/shifts/import',
    {
      ...common,
      preHandler: perUser('team-shift-import', 10),
      schema: {
        ...secured,
        summary: 'Import shifts from CSV `member,start,end`: all rows or none (admin)',
        params: teamParams,
        body: shiftImportBody,
        response: { 200: data(shiftImportSchema) },
      },
    },
    async (request) => ({ data: await teams.importShifts(request.userId, request.params.teamId, request.body.csv) }),
  );

  app.get(
    '/teams/:teamId/tip-shares',
    {
      ...common,
      schema: {
        ...secured,
        summary: "Your shares of the team's latest tips, with their maths",
        params: teamParams,
        response: { 200: data(z.array(tipShareSchema)) },
      },
    },
    async (request) => ({ data: await teams.tipShares(request.userId, request.params.teamId) }),
  );
  app.get(
    '/teams/:teamId/periods',
    {
      ...common,
      schema: {
        ...secured,
        summary: "The team's recent periods (calendar months, UTC), newest first: state, tips, objections and the legal deadline",
        params: teamParams,
        response: { 200: data(z.array(teamPeriodSchema)) },
      },
    },
    async (request) => ({ data: await teams.periods(request.userId, request.params.teamId) }),
  );

  app.post(
    '/teams/:teamId/periods/:month/close',
    {
      ...common,
      preHandler: perUser('team-period', 30),
      schema: {
        ...secured,
        summary: 'Close a month that has ended: members have 24 hours to object (admin)',
        params: periodParams,
        response: { 200: data(teamPeriodSchema) },
      },
    },
    async (request) => ({ data: await teams.closePeriod(request.userId, request.params.teamId, request.params.month) }),
  );

  app.post(
    '/teams/:teamId/periods/:month/objections',
    {
      ...common,
      preHandler: perUser('team-period-objection', 10),
      schema: {
        ...secured,
        summary: 'Object to a closed period within 24 hours of its close',
        params: periodParams,
        body: periodObjectionBody,
        response: { 201: data(teamPeriodSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await teams.objectToPeriod(request.userId, request.params.teamId, request.params.month, request.body.text),
      }),
  );

  app.post(
    '/teams/:teamId/periods/:month/objections/:objectionId/answer',
    {
      ...common,
      preHandler: perUser('team-period', 30),
      schema: {
        ...secured,
        summary: 'Answer an objection to a period (admin)',
        params: objectionParams,
        body: periodAnswerBody,
        response: { 200: data(teamPeriodSchema) },
      },
    },
    async (request) => ({
      data: await teams.answerObjection(
        request.userId,
        request.params.teamId,
        request.params.month,
        request.params.objectionId,
        request.body.answer,
      ),
    }),
  );

  app.post(
    '/teams/:teamId/periods/:month/confirm',
    {
      ...common,
      preHandler: perUser('team-period-confirm', 30),
      schema: {
        ...secured,
        summary: 'Confirm a closed period: you do not object',
        params: periodParams,
        response: { 200: data(teamPeriodSchema) },
      },
    },
    async (request) => ({ data: await teams.confirmPeriod(request.userId, request.params.teamId, request.params.month) }),
  );

  app.post(
    '/teams/:teamId/periods/:month/lock',
    {
      ...common,
      preHandler: perUser('team-period', 30),
      schema: {
        ...secured,
        summary:
          'Approve and lock a closed period: every objection answered, and the 24 hours over or everyone with a share confirmed (admin)',
        params: periodParams,
        response: { 200: data(teamPeriodSchema) },
      },
    },
    async (request) => ({ data: await teams.lockPeriod(request.userId, request.params.teamId, request.params.month) }),
  );

  app.post(
    '/teams/:teamId/periods/:month/adjustments',
    {
      ...common,
      preHandler: perUser('team-period', 30),
      schema: {
        ...secured,
        summary:
          'Move cents from one member to another after the period was locked: a new, audited adjustment (admin; send an Idempotency-Key)',
        params: periodParams,
        headers: z.object({ 'idempotency-key': z.string().trim().min(8, 'validation.valid').max(100, 'validation.valid') }),
        body: periodAdjustmentBody,
        response: { 201: data(periodAdjustmentResultSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await teams.adjustPeriod(
          request.userId,
          request.params.teamId,
          request.params.month,
          request.body,
          request.headers['idempotency-key'],
        ),
      }),
  );
};
