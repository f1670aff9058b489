import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BOOT_SCRIPT_CSP_HASH, bootAfterPaint, renderShell } from './web-shell.service.ts';

const template = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="Tipcard: cashless tips." />
    <title>Tipcard</title>
  </head>
  <body><div id="root"></div></body>
</html>`;

describe('renderShell', () => {
  it('sets the language, title, description, canonical, hreflang alternates and Open Graph tags', () => {
    const html = renderShell(template, 'https://tipcard.example', {
      locale: 'lv',
      title: 'Par mums — Tipcard',
      description: 'Dzeramnauda bez skaidras naudas',
      path: '/about',
      localized: true,
    });
    expect(html).toContain('<html lang="lv"');
    expect(html).toContain('<title>Par mums — Tipcard</title>');
    expect(html).toContain('<meta name="description" content="Dzeramnauda bez skaidras naudas" />');
    expect(html).toContain('<link rel="canonical" href="https://tipcard.example/lv/about" />');
    for (const [lang, href] of [
      ['en', '/about'],
      ['lv', '/lv/about'],
      ['fr', '/fr/about'],
      ['es', '/es/about'],
      ['x-default', '/about'],
    ]) {
      expect(html).toContain(`<link rel="alternate" hreflang="${lang}" href="https://tipcard.example${href}" />`);
    }
    expect(html).toContain('<meta property="og:title" content="Par mums — Tipcard" />');
    expect(html).toContain('<meta property="og:locale" content="lv_LV" />');
    expect([...html.matchAll(/<meta property="og:locale:alternate" content="([^"]*)"/g)].map((match) => match[1])).toEqual([
      'en_GB',
      'fr_FR',
      'es_ES',
    ]);
    expect(html.match(/<title>/g)).toHaveLength(1);
  });

  it("names no other language in Open Graph for a page that exists in one only (a card's page)", () => {
    const html = renderShell(template, 'https://tipcard.example', {
      locale: 'es',
      title: 'Propina para Anna',
      description: 'Propinas sin efectivo',
      path: '/payment/1',
    });
    expect(html).toContain('<meta property="og:locale" content="es_ES" />');
    expect(html).not.toContain('og:locale:alternate');
  });

  it('escapes text in attributes and inlines data that cannot break out of its script element', () => {
    const html = renderShell(template, 'http://localhost:3000', {
      locale: 'en',
      title: 'Anna "the best" <b>',
      description: "It's & more",
      path: '/payment/1',
      data: { public_name: '</script><script>alert(1)</script>', phrase: '<!-- x' },
    });
    expect(html).toContain('<title>Anna &quot;the best&quot; &lt;b&gt;</title>');
    expect(html).toContain('content="It&#39;s &amp; more"');
    expect(html).not.toContain('hreflang');
    const json = /<script type="application\/json" id="tipcard-data">(.*)<\/script>/.exec(html)?.[1];
    expect(json).not.toContain('</script>');
    expect(JSON.parse(json!)).toEqual({ public_name: '</script><script>alert(1)</script>', phrase: '<!-- x' });
  });
});

describe('bootAfterPaint', () => {
  const built = `<head>
    <script type="module" crossorigin src="/assets/index-AbC1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/format-X.js">
    <link rel="modulepreload" crossorigin href="/assets/i18n-Y.js">
    <link rel="stylesheet" crossorigin href="/assets/index-Z.css">
  </head>
  <body>
    <div id="root"></div>
  </body>`;

  it('names the entry to the inline boot script at the end of the body and drops its module preloads, keeping the stylesheet', () => {
    const html = bootAfterPaint(built);
    expect(html).toMatch(/<script data-entry="\/assets\/index-AbC1\.js">[^<]+<\/script>\s*<\/body>/);
    expect(html).not.toContain('modulepreload');
    expect(html).not.toContain('crossorigin src=');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-Z.css">');
  });

  it("names the page's own script beside the entry when it has one (the landing's, decision 0065)", () => {
    const html = bootAfterPaint(built, '/assets/landing-island-Q9.js');
    expect(html).toMatch(
      /<script data-entry="\/assets\/index-AbC1\.js" data-island="\/assets\/landing-island-Q9\.js">[^<]+<\/script>\s*<\/body>/,
    );
    const script = /<script data-entry="[^"]+" data-island="[^"]+">([^<]+)<\/script>/.exec(html)![1]!;
    expect(BOOT_SCRIPT_CSP_HASH).toBe(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  });

  it('is the one inline script the CSP allows, by its hash', () => {
    const script = /<script data-entry="[^"]+">([^<]+)<\/script>/.exec(bootAfterPaint(built))![1]!;
    expect(BOOT_SCRIPT_CSP_HASH).toBe(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  });
});
