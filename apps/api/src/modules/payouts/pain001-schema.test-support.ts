import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** A copy of ../shared/schemas/pain.001.001.09-epc-sct.xsd kept in the repo, so the tests run without the shared folder. */
export const PAIN001_XSD = process.env.PAIN001_XSD ?? fileURLToPath(new URL('./schemas/pain.001.001.09-epc-sct.xsd', import.meta.url));

/** Fails the test unless xmllint accepts `xml` against the EPC pain.001.001.09 schema. */
export function expectValidPain001(xml: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'pain001-'));
  try {
    const file = join(dir, 'batch.xml');
    writeFileSync(file, xml);
    let output = '';
    try {
      output = execFileSync('xmllint', ['--noout', '--schema', PAIN001_XSD, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const failure = error as { stderr?: string; message: string };
      expect.fail(`pain.001 does not validate against ${PAIN001_XSD}:\n${failure.stderr ?? failure.message}`);
    }
    expect(output).toBe('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
