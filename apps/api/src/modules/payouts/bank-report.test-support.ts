import { bankReportSchemaErrors, pain001Blocks, type BankReportFormat } from './bank-report.ts';
import { transferAmount } from './sepa-file.ts';

/** What the bank answers for one payout of a file. */
export interface BankAnswer {
  payoutId: string;
  amountCents: number;
  outcome: 'paid' | 'returned' | 'pending';
  reason?: string;
}

const endToEndIdOf = (payoutId: string) => payoutId.replaceAll('-', '');
const pain001MessageId = (pain001: string) => /<MsgId>([^<]+)<\/MsgId>/.exec(pain001)![1]!;
const blockOf = (blocks: Map<string, string[]>, endToEndId: string) =>
  [...blocks].find(([, ids]) => ids.includes(endToEndId))?.[0] ?? [...blocks.keys()][0]!;
const NOW = '2026-11-20T10:00:00Z';

/**
 * A pain.002 answering a batch's real pain.001, as a bank writes it: per transaction status and reason. The 2009
 * version (EPC / German banking industry) carries rejections only, so it is asked for returned payouts only.
 */
export function buildPain002(
  format: Extract<BankReportFormat, `pain.002${string}`>,
  pain001: string,
  answers: BankAnswer[],
  options: { messageId?: string; originalMessageId?: string; groupStatus?: string } = {},
): string {
  const blocks = pain001Blocks(pain001);
  const byBlock = new Map<string, BankAnswer[]>();
  for (const answer of answers) {
    const block = blockOf(blocks, endToEndIdOf(answer.payoutId));
    byBlock.set(block, [...(byBlock.get(block) ?? []), answer]);
  }
  const legacy = format === 'pain.002.001.03';
  const status = { paid: 'ACSC', returned: 'RJCT', pending: 'ACSP' } as const;
  const transaction = (answer: BankAnswer) => {
    if (legacy && answer.outcome !== 'returned') throw new Error('pain.002.001.03 (EPC) reports rejections only');
    return [
      '      <TxInfAndSts>',
      `        <OrgnlEndToEndId>${endToEndIdOf(answer.payoutId)}</OrgnlEndToEndId>`,
      `        <TxSts>${status[answer.outcome]}</TxSts>`,
      ...(answer.reason ? [`        <StsRsnInf><Rsn><Cd>${answer.reason}</Cd></Rsn></StsRsnInf>`] : []),
      ...(legacy
        ? [
            `        <OrgnlTxRef><Amt><InstdAmt Ccy="EUR">${transferAmount(answer.amountCents)}</InstdAmt></Amt><ReqdExctnDt>2026-11-20</ReqdExctnDt></OrgnlTxRef>`,
          ]
        : []),
      '      </TxInfAndSts>',
    ].join('\n');
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:${format}">`,
    '  <CstmrPmtStsRpt>',
    `    <GrpHdr><MsgId>${options.messageId ?? 'BANK-PSR-0001'}</MsgId><CreDtTm>${NOW}</CreDtTm></GrpHdr>`,
    '    <OrgnlGrpInfAndSts>',
    `      <OrgnlMsgId>${options.originalMessageId ?? pain001MessageId(pain001)}</OrgnlMsgId>`,
    '      <OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId>',
    ...(options.groupStatus ? [`      <GrpSts>${options.groupStatus}</GrpSts>`] : []),
    '    </OrgnlGrpInfAndSts>',
    ...[...byBlock].map(([block, blockAnswers]) =>
      [
        '    <OrgnlPmtInfAndSts>',
        `      <OrgnlPmtInfId>${block}</OrgnlPmtInfId>`,
        ...blockAnswers.map(transaction),
        '    </OrgnlPmtInfAndSts>',
      ].join('\n'),
    ),
    '  </CstmrPmtStsRpt>',
    '</Document>',
    '',
  ].join('\n');
}

/**
 * A camt.054 of our account answering a batch's real pain.001: a booked debit per paid payout, a booked credit of
 * the return family (RRTN, with its reason) per returned one, a pending debit for one still in flight.
 */
export function buildCamt054(
  format: Extract<BankReportFormat, `camt.054${string}`>,
  pain001: string,
  answers: BankAnswer[],
  options: { messageId?: string; originalMessageId?: string } = {},
): string {
  const blocks = pain001Blocks(pain001);
  const messageId = options.originalMessageId ?? pain001MessageId(pain001);
  const v08 = format === 'camt.054.001.08';
  const entry = (answer: BankAnswer, index: number) => {
    const endToEndId = endToEndIdOf(answer.payoutId);
    const returned = answer.outcome === 'returned';
    const amount = `<Amt Ccy="EUR">${transferAmount(answer.amountCents)}</Amt>`;
    const status = answer.outcome === 'pending' ? 'PDNG' : 'BOOK';
    return [
      '      <Ntry>',
      `        <NtryRef>${index + 1}</NtryRef>`,
      `        ${amount}`,
      `        <CdtDbtInd>${returned ? 'CRDT' : 'DBIT'}</CdtDbtInd>`,
      `        <Sts>${v08 ? `<Cd>${status}</Cd>` : status}</Sts>`,
      '        <BookgDt><Dt>2026-11-20</Dt></BookgDt>',
      `        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>${returned ? 'RRTN' : 'ESCT'}</SubFmlyCd></Fmly></Domn></BkTxCd>`,
      '        <NtryDtls><TxDtls>',
      `          <Refs><MsgId>${messageId}</MsgId><PmtInfId>${blockOf(blocks, endToEndId)}</PmtInfId><EndToEndId>${endToEndId}</EndToEndId></Refs>`,
      ...(v08 ? [`          ${amount}`, `          <CdtDbtInd>${returned ? 'CRDT' : 'DBIT'}</CdtDbtInd>`] : []),
      ...(returned ? [`          <RtrInf><Rsn><Cd>${answer.reason ?? 'MS03'}</Cd></Rsn></RtrInf>`] : []),
      '        </TxDtls></NtryDtls>',
      '      </Ntry>',
    ].join('\n');
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:${format}">`,
    '  <BkToCstmrDbtCdtNtfctn>',
    `    <GrpHdr><MsgId>${options.messageId ?? 'BANK-NTF-0001'}</MsgId><CreDtTm>${NOW}</CreDtTm></GrpHdr>`,
    '    <Ntfctn>',
    '      <Id>NTF-1</Id>',
    `      <CreDtTm>${NOW}</CreDtTm>`,
    '      <Acct><Id><IBAN>LV80BANK0000435195001</IBAN></Id></Acct>',
    ...answers.map(entry),
    '    </Ntfctn>',
    '  </BkToCstmrDbtCdtNtfctn>',
    '</Document>',
    '',
  ].join('\n');
}

/**
 * Throws unless the generated report validates against its official schema (no vitest here: the simulator writes its
 * bank's answers with these builders too).
 */
export async function expectValidBankReport(xml: string, format: BankReportFormat): Promise<void> {
  const errors = await bankReportSchemaErrors(xml, format);
  if (errors.length > 0) throw new Error(`${format} does not validate against its schema: ${errors.join('; ')}`);
}
