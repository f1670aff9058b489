/**
 * `node apps/api/dist/healthcheck.js [url]`: the container health check (Dockerfile HEALTHCHECK, compose.yaml). Exits 0
 * when the URL answers 2xx within 2 s, else 1. The image has no curl or wget, and a script keeps the check's command
 * free of quoting that compose implementations pass on differently. Default: this process's /api/health on PORT.
 */
const url = process.argv[2] ?? `http://127.0.0.1:${process.env.PORT ?? 3000}/api/health`;
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
