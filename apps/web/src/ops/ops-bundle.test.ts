import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..');

/**
 * Every source file an entry reaches through static and dynamic relative imports (what Vite would bundle from it);
 * `import type` is erased, so it brings nothing along.
 */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8').replace(/^import type [^;]+;$/gm, '');
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), match[1]!);
      if (existsSync(target) && /\.(tsx?|css)$/.test(target)) visit(target);
    }
  };
  visit(resolve(SRC, entry));
  return new Set([...seen].map((file) => relative(SRC, file)));
}

describe('the back office bundle stays its own', () => {
  it('the ops entry reaches the ops app and every screen (the walker works)', () => {
    const files = reachable('ops-main.tsx');
    expect(files).toContain('ops/ops-app.tsx');
    expect(files).toContain('ops/pages/payouts-page.tsx');
  });

  it('the ops entry reaches neither the app’s API client nor its i18n with every catalog', () => {
    const files = reachable('ops-main.tsx');
    expect(files).toContain('ops/ops-api.ts');
    expect(files).not.toContain('lib/api-client.ts');
    expect(files).not.toContain('lib/i18n.ts');
  });

  it.each(['main.tsx', 'public-main.tsx'])('%s (the user app / the guest pages) reaches none of it', (entry) => {
    const files = [...reachable(entry)];
    expect(files.length).toBeGreaterThan(5);
    expect(files.filter((file) => file.startsWith('ops/') || file === 'ops-main.tsx')).toEqual([]);
  });
});
