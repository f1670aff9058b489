import { describe, expect, it } from 'vitest';
import { toEpcId, toEpcText } from './epc-text.ts';
import { expectValidPain001, pain001SchemaErrors } from './pain001-schema.test-support.ts';
import { buildSepaCreditTransferFile, transferAmount, type SepaTransfer } from './sepa-file.ts';
import { buildUkBulkCsv } from './uk-file.ts';

const debtor = { name: 'Tipcard TEST debtor', iban: 'LV80BANK0000435195001', bic: 'HABALV22' };
const transfer = (overrides: Partial<SepaTransfer> = {}): SepaTransfer => ({
  endToEndId: '0f8fad5bd9cb469fa16570867728950e',
  amountCents: 1000,
  creditorName: 'Bērziņa',
  creditorIban: 'DE89370400440532013000',
  creditorBic: 'COBADEFFXXX',
  creditorAddress: 'Brīvības iela 1, Rīga',
  remittance: 'Tipcard payout 0F8FAD5B',
  ...overrides,
});
const build = (transfers: SepaTransfer[]) =>
  buildSepaCreditTransferFile({
    messageId: 'TC0123456789ABCDEF',
    createdAt: new Date('2026-11-20T10:00:00Z'),
    executionDate: '2026-11-23',
    debtor,
    transfers,
  });

describe('SEPA pain.001.001.09 file', () => {
  it('validates against the EPC schema with one and with many transfers, and sums them', async () => {
    const one = build([transfer()]);
    await expectValidPain001(one);
    expect(one).toContain('<CtrlSum>10.00</CtrlSum>');
    const many = build([
      transfer({ amountCents: 300 }),
      transfer({
        amountCents: 1_234_567,
        endToEndId: 'a'.repeat(32),
        creditorIban: 'LV80BANK0000435195001',
        creditorBic: 'HABALV22',
      }),
    ]);
    await expectValidPain001(many);
    expect(many).toContain('<NbOfTxs>2</NbOfTxs>');
    expect(many).toContain('<CtrlSum>12348.67</CtrlSum>');
  });

  it('carries SEPA Instant in its own block (SvcLvl SEPA, LclInstrm INST) beside ordinary transfers, valid against the schema', async () => {
    const onlyInstant = build([transfer({ instant: true })]);
    await expectValidPain001(onlyInstant);
    expect(onlyInstant).toContain('<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl><LclInstrm><Cd>INST</Cd></LclInstrm></PmtTpInf>');
    const mixed = build([
      transfer({ amountCents: 300, instant: true }),
      transfer({ amountCents: 500, endToEndId: 'b'.repeat(32) }),
      transfer({ amountCents: 700, endToEndId: 'c'.repeat(32), instant: true }),
    ]);
    await expectValidPain001(mixed);
    const blocks = mixed.split('<PmtInf>').slice(1);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).not.toContain('INST');
    expect(blocks[0]).toContain('<NbOfTxs>1</NbOfTxs>');
    expect(blocks[0]).toContain('<CtrlSum>5.00</CtrlSum>');
    expect(blocks[1]).toContain('<LclInstrm><Cd>INST</Cd></LclInstrm>');
    expect(blocks[1]).toContain('<NbOfTxs>2</NbOfTxs>');
    expect(blocks[1]).toContain('<CtrlSum>10.00</CtrlSum>');
    expect(blocks[1]).toContain('<PmtInfId>TC0123456789ABCDEF-2</PmtInfId>');
    // The group header counts and sums the whole file.
    expect(mixed).toContain(
      '<GrpHdr>\n      <MsgId>TC0123456789ABCDEF</MsgId>\n      <CreDtTm>2026-11-20T10:00:00Z</CreDtTm>\n      <NbOfTxs>3</NbOfTxs>\n      <CtrlSum>15.00</CtrlSum>',
    );
  });

  it('transliterates names and addresses to the EPC character set and escapes nothing unsafe into the XML', async () => {
    const xml = build([
      transfer({
        creditorName: 'Łukasz Ørsted-Müller & Søn <script>"x"</script> — Straße',
        creditorAddress: `${'Ļoti gara iela '.repeat(12)}Zürich`,
        remittance: 'Tipcard payout ÀÉÎ',
      }),
    ]);
    await expectValidPain001(xml);
    expect(xml).toContain('<Nm>Lukasz Orsted-Muller + Son script &apos;x&apos; /script - Strasse</Nm>');
    expect(xml).not.toMatch(/<script>/);
  });

  it('keeps an empty-after-transliteration name valid', async () => {
    await expectValidPain001(build([transfer({ creditorName: '日本語', creditorAddress: '東京' })]));
  });

  // The check above is only worth something if it can fail: files that break the schema in different ways.
  it('has its schema check reject a file that breaks the EPC rules', async () => {
    const valid = build([transfer()]);
    const broken: [xml: string, error: string][] = [
      [valid.replace('<CtrlSum>10.00</CtrlSum>', '<CtrlSum>10.001</CtrlSum>'), "CtrlSum': [facet 'fractionDigits']"],
      [valid.replace(/<CdtrAcct>[\s\S]*?<\/CdtrAcct>/, ''), "RmtInf': This element is not expected"],
      [valid.replace('</RmtInf>', '<Note>x</Note></RmtInf>'), "Note': This element is not expected"],
      [valid.slice(0, valid.lastIndexOf('</')), 'Premature end of data'],
    ];
    expect(await pain001SchemaErrors(valid)).toEqual([]);
    for (const [xml, error] of broken) {
      expect(await pain001SchemaErrors(xml)).toEqual(expect.arrayContaining([expect.stringContaining(error)]));
    }
  });

  it('refuses non-integer or non-positive amounts', () => {
    expect(() => transferAmount(10.5)).toThrow();
    expect(() => transferAmount(0)).toThrow();
    expect(transferAmount(5)).toBe('0.05');
  });

  it('makes EPC identifiers and texts', () => {
    expect(toEpcId('//ab  c//d/')).toBe('abc/d');
    expect(toEpcText('  Ģirts   Šmits ', 70)).toBe('Girts Smits');
  });
});

describe('UK bulk CSV', () => {
  it('writes sort code, account number, name, amount and reference', () => {
    const csv = buildUkBulkCsv([
      {
        sortCode: '601613',
        accountNumber: '31926819',
        name: 'Jane O\'Brien, "Esq"',
        amountCents: 1050,
        reference: 'Tipcard 0f8fad5b',
      },
    ]);
    expect(csv).toBe(
      'sort_code,account_number,account_name,amount,reference\r\n601613,31926819,JANE O BRIEN ESQ,10.50,TIPCARD 0F8FAD5B\r\n',
    );
  });
});
