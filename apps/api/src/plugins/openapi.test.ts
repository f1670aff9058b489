import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { operationIdOf } from './openapi.ts';

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
}
interface Document {
  servers?: { url: string }[];
  components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
  paths: Record<string, Record<string, Operation>>;
}

let t: TestApp;
let operations: { method: string; path: string; operation: Operation }[];
let document: Document;
beforeAll(async () => {
  t = await createTestApp();
  document = t.app.swagger() as unknown as Document;
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
});
afterAll(() => t.close());

describe('the OpenAPI document', () => {
  it('names every operation once, after its method and path', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][a-zA-Z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/api/clients/{clientId}/cards']?.get?.operationId).toBe('getClientCards');
  });

  it('derives readable ids: items before a path id are singular, other words kept', () => {
    expect(operationIdOf('POST', '/api/payout-methods/:id/default')).toBe('postPayoutMethodDefault');
    expect(operationIdOf('GET', '/api/clients/:clientId/transactions.csv')).toBe('getClientTransactionsCsv');
    expect(operationIdOf('POST', '/api/login_check')).toBe('postLoginCheck');
    expect(operationIdOf('GET', '/api/teams/:teamId/requests/:requestId/approve')).toBe('getTeamRequestApprove');
    expect(operationIdOf('GET', '/api/ops/addresses/:id')).toBe('getOpsAddress');
  });

  // Calling without a token is what decides: onRequest: app.authenticate answers 401 before anything else runs.
  it('asks for the bearer token exactly on the operations that answer 401 without one', async () => {
    expect(operations.length).toBeGreaterThan(30);
    for (const { method, path, operation } of operations) {
      const url = path.replaceAll(/\{[^}]+\}/g, randomUUID());
      const { status } = await t.call({ method: method as 'GET', url });
      expect({ method, path, security: operation.security }).toEqual({
        method,
        path,
        // The back office's routes take the operator token (issue 15), every other guarded route the user's.
        security: status === 401 ? [path.startsWith('/api/ops/') ? { opsBearer: [] } : { bearer: [] }] : [],
      });
    }
  });

  it('documents the 4xx answers of every operation with the one error schema', async () => {
    const refused = await t.call({ method: 'GET', url: '/api/me' });
    expect(Object.keys(document.components.schemas.ApiError?.properties ?? {}).sort()).toEqual(Object.keys(refused.body).sort());
    expect(document.components.schemas.ApiError?.required.sort()).toEqual(Object.keys(refused.body).sort());
    for (const { method, path, operation } of operations) {
      const errors = Object.entries(operation.responses).filter(([status]) => status.startsWith('4'));
      expect(errors.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const [status, response] of errors) {
        expect(response.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({
          $ref: '#/components/schemas/ApiError',
        });
      }
    }
  });

  it('lists the statuses an operation can give: input, token, path id and rate limit', () => {
    const statuses = (path: string, method: string) => Object.keys(document.paths[path]?.[method]?.responses ?? {});
    expect(statuses('/api/request-otp', 'post')).toEqual(expect.arrayContaining(['400', '422', '429']));
    expect(statuses('/api/request-otp', 'post')).not.toContain('401');
    expect(statuses('/api/payouts/{id}', 'get')).toEqual(expect.arrayContaining(['401', '404']));
    expect(statuses('/api/me', 'get')).not.toContain('429');
  });

  it('names a server, so clients resolve the paths against the origin that serves the document', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });
});
