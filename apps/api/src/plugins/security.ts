import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BOOT_SCRIPT_CSP_HASH, FIRST_VIEW_SCRIPT_CSP_HASH } from '../modules/web-shell/web-shell.service.ts';

/** Cloudflare Turnstile's widget: its script and its iframe, allowed only when the anti-bot check is on. */
const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

/** Security headers on every response (DESIGN "Sign-in and security"); HSTS only where the site is on https. */
export const securityPlugin = fp(
  async (app: FastifyInstance, options: { https: boolean; turnstile?: boolean; errorReportingOrigin?: string }) => {
    // The web app sends its errors straight to Sentry's ingestion (SENTRY_DSN's origin).
    const reporting = options.errorReportingOrigin ? [options.errorReportingOrigin] : [];
    const turnstile = options.turnstile ? [TURNSTILE_ORIGIN] : [];
    const setSecurityHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'self'"],
          formAction: ["'self'"],
          // No inline script but two, by their hashes: the one that starts a server-rendered page's app after its
          // first paint, and the one that keeps the signed-in skeleton's figures only where the app shows them.
          scriptSrc: ["'self'", BOOT_SCRIPT_CSP_HASH, FIRST_VIEW_SCRIPT_CSP_HASH, ...turnstile],
          // blob: lets the back office show a verification PDF it fetched with its token.
          frameSrc: ["'self'", 'blob:', ...turnstile],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...reporting],
          ...(options.https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      frameguard: { action: 'sameorigin' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    });
    // Nothing in them depends on the request: helmet runs once, on a stand-in response, and every request gets the
    // headers it set in one assignment (running its dozen middlewares per request was most of a cached answer's hooks).
    const headers: Record<string, string> = {};
    const standIn = {
      setHeader: (name: string, value: string | number | readonly string[]) => void (headers[name.toLowerCase()] = String(value)),
      removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    };
    setSecurityHeaders({} as IncomingMessage, standIn as unknown as ServerResponse, (error?: unknown) => {
      if (error) throw error;
    });
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
);
