import { decimalAmount } from '@tipcard/shared/money/format';
import { toEpcId, toEpcText } from './epc-text.ts';

/**
 * A SEPA Credit Transfer initiation, ISO 20022 pain.001.001.09 as the EPC implementation guidelines restrict it
 * (the schema at ../shared/schemas/pain.001.001.09-epc-sct.xsd). A pure function of its input: the same batch
 * always gives the same bytes, so a file written out again is the file the bank saw.
 */

export interface SepaDebtor {
  name: string;
  iban: string;
  bic: string;
}

export interface SepaTransfer {
  /** End-to-end reference the creditor's bank passes on: our payout id without dashes (32 characters). */
  endToEndId: string;
  amountCents: number;
  creditorName: string;
  creditorIban: string;
  creditorBic: string;
  /** Free-form postal address: at most two lines of 70 characters in the file. */
  creditorAddress: string;
  remittance: string;
  /** SEPA Instant (SCT Inst): goes in the file's instant payment information block. */
  instant?: boolean;
}

export interface SepaBatchInput {
  messageId: string;
  createdAt: Date;
  /** YYYY-MM-DD: when the bank should execute the transfers. */
  executionDate: string;
  debtor: SepaDebtor;
  transfers: SepaTransfer[];
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);

/** A transfer's amount as the bank files write it ("12.34"); a bank refuses a zero or negative transfer. */
export function transferAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0)
    throw new RangeError(`A transfer amount must be positive integer cents, got ${cents}`);
  return decimalAmount(cents);
}

/** A name as the file carries it: EPC characters, at most 70, never empty. */
const partyName = (name: string) => toEpcText(name, 70) || 'Unknown';

/** The address in at most two 70-character lines, split at a word boundary. */
function addressLines(address: string): string[] {
  const words = toEpcText(address, 140).split(' ').filter(Boolean);
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    const next = current ? `${current} ${word}` : word;
    if (next.length <= 70) current = next;
    else {
      if (current) lines.push(current);
      current = word.slice(0, 70);
    }
  }
  if (current) lines.push(current);
  return lines.slice(0, 2);
}

/** UTC with no fraction, e.g. 2026-11-20T10:00:00Z. */
const isoDateTime = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

/**
 * The payment type of a block: every transfer is SEPA (`SvcLvl/Cd` SEPA); the instant ones also carry the local
 * instrument `INST`, as the EPC SCT Inst customer-to-PSP implementation guidelines ask (docs/decisions/0044).
 */
const paymentType = (instant: boolean) =>
  `<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl>${instant ? '<LclInstrm><Cd>INST</Cd></LclInstrm>' : ''}</PmtTpInf>`;

export function buildSepaCreditTransferFile(input: SepaBatchInput): string {
  if (input.transfers.length === 0) throw new Error('A SEPA file needs at least one transfer');
  const messageId = toEpcId(input.messageId);
  const total = input.transfers.reduce((sum, transfer) => sum + transfer.amountCents, 0);
  const tag = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;

  const transferXml = (transfer: SepaTransfer) => {
    const address = addressLines(transfer.creditorAddress);
    const remittance = toEpcText(transfer.remittance, 140);
    return [
      '      <CdtTrfTxInf>',
      `        <PmtId>${tag('EndToEndId', toEpcId(transfer.endToEndId))}</PmtId>`,
      `        <Amt><InstdAmt Ccy="EUR">${transferAmount(transfer.amountCents)}</InstdAmt></Amt>`,
      `        <CdtrAgt><FinInstnId>${tag('BICFI', transfer.creditorBic)}</FinInstnId></CdtrAgt>`,
      `        <Cdtr>${tag('Nm', partyName(transfer.creditorName))}${
        address.length > 0
          ? `<PstlAdr>${tag('Ctry', transfer.creditorIban.slice(0, 2))}${address.map((line) => tag('AdrLine', line)).join('')}</PstlAdr>`
          : ''
      }</Cdtr>`,
      `        <CdtrAcct><Id>${tag('IBAN', transfer.creditorIban)}</Id></CdtrAcct>`,
      ...(remittance ? [`        <RmtInf>${tag('Ustrd', remittance)}</RmtInf>`] : []),
      '      </CdtTrfTxInf>',
    ].join('\n');
  };

  // One payment information block per payment type: the ordinary transfers first (the file's first block keeps the
  // id "-1" it always had), then the instant ones.
  const blocks = [false, true]
    .map((instant) => ({ instant, transfers: input.transfers.filter((transfer) => (transfer.instant ?? false) === instant) }))
    .filter((block) => block.transfers.length > 0);
  const paymentInformation = blocks.flatMap((block, index) => {
    const sum = block.transfers.reduce((acc, transfer) => acc + transfer.amountCents, 0);
    return [
      '    <PmtInf>',
      `      ${tag('PmtInfId', toEpcId(`${messageId}-${index + 1}`))}`,
      '      <PmtMtd>TRF</PmtMtd>',
      `      ${tag('NbOfTxs', String(block.transfers.length))}`,
      `      ${tag('CtrlSum', transferAmount(sum))}`,
      `      ${paymentType(block.instant)}`,
      `      <ReqdExctnDt>${tag('Dt', input.executionDate)}</ReqdExctnDt>`,
      `      <Dbtr>${tag('Nm', partyName(input.debtor.name))}</Dbtr>`,
      `      <DbtrAcct><Id>${tag('IBAN', input.debtor.iban)}</Id></DbtrAcct>`,
      `      <DbtrAgt><FinInstnId>${tag('BICFI', input.debtor.bic)}</FinInstnId></DbtrAgt>`,
      '      <ChrgBr>SLEV</ChrgBr>',
      ...block.transfers.map(transferXml),
      '    </PmtInf>',
    ];
  });

  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    '  <CstmrCdtTrfInitn>',
    '    <GrpHdr>',
    `      ${tag('MsgId', messageId)}`,
    `      ${tag('CreDtTm', isoDateTime(input.createdAt))}`,
    `      ${tag('NbOfTxs', String(input.transfers.length))}`,
    `      ${tag('CtrlSum', transferAmount(total))}`,
    `      <InitgPty>${tag('Nm', partyName(input.debtor.name))}</InitgPty>`,
    '    </GrpHdr>',
    ...paymentInformation,
    '  </CstmrCdtTrfInitn>',
    '</Document>',
    '',
  ].join('\n');
}
