import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { validateXML } from 'xmllint-wasm';

/** A copy of ../shared/schemas/pain.001.001.09-epc-sct.xsd kept in the repo, so the tests run without the shared folder. */
export const PAIN001_XSD =
  process.env.PAIN001_XSD ?? fileURLToPath(new URL('./schemas/pain.001.001.09-epc-sct.xsd', import.meta.url));

/**
 * What libxml2 finds wrong with `xml` against the EPC pain.001.001.09 schema; empty when the file is valid. xmllint-wasm
 * is xmllint compiled to WebAssembly: the same checks as Debian's binary, installed by npm like everything else.
 */
export async function pain001SchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'batch.xml', contents: xml },
    schema: { fileName: 'pain.001.001.09-epc-sct.xsd', contents: readFileSync(PAIN001_XSD, 'utf8') },
  });
  if (result.valid) return [];
  const errors = result.errors.map((error) => error.rawMessage).filter(Boolean);
  // Never answer "no errors" for a file libxml2 refused, whatever its output looked like.
  return errors.length > 0 ? errors : [result.rawOutput || 'invalid'];
}

/** Fails the test unless `xml` validates against the EPC pain.001.001.09 schema. */
export async function expectValidPain001(xml: string): Promise<void> {
  expect(await pain001SchemaErrors(xml), `pain.001 does not validate against ${PAIN001_XSD}`).toEqual([]);
}
