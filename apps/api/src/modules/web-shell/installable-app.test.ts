import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** The installed app's files (decision 0046) as the server hands them out: the worker, the manifest, an icon. */
describe('the installable app’s files', () => {
  let t: TestApp;
  beforeAll(async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'tipcard-pwa-'));
    mkdirSync(join(webDist, 'assets'));
    mkdirSync(join(webDist, 'icons'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><html><head><title>Tipcard</title></head><body></body></html>');
    writeFileSync(join(webDist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(join(webDist, 'manifest.webmanifest'), '{"name":"Tipcard"}');
    writeFileSync(join(webDist, 'icons', 'icon-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
    writeFileSync(join(webDist, 'assets', 'index-x.js'), 'export {};');
    t = await createTestApp({ config: { webDist } });
  });
  afterAll(() => t.close());

  it('serves the service worker for the whole site, checked on every visit, under the CSP that allows it', async () => {
    const answer = await t.call({ method: 'GET', url: '/sw.js' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers['service-worker-allowed']).toBe('/');
    // worker-src and manifest-src fall back to default-src: the site's own files, nothing else.
    const csp = String(answer.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/worker-src|manifest-src/);
  });

  it('serves the manifest as a web app manifest and the icons, while hashed assets stay immutable', async () => {
    const manifest = await t.call({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.status).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect((await t.call({ method: 'GET', url: '/icons/icon-192.png' })).headers['content-type']).toBe('image/png');
    const asset = await t.call({ method: 'GET', url: '/assets/index-x.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['service-worker-allowed']).toBeUndefined();
  });
});
