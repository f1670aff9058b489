import { readFileSync } from 'node:fs';
import { BANK_REPORT_MAX_CHARS } from '@tipcard/shared/ops/schemas';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { AppError } from '../../lib/app-error.ts';

/**
 * The bank's answer to one of our pain.001 files (docs/decisions/0049): a payment status report (pain.002) or a
 * debit/credit notification (camt.054), recognised by its namespace (never by its file name), checked against its
 * ISO 20022 schema with libxml2 (xmllint-wasm), then read with a real XML parser into what it says of each transfer.
 * Matching it to a batch and applying it is the back office's part (modules/ops).
 */

export const BANK_REPORT_FORMATS = {
  /** The pain.002 that pairs with our pain.001.001.09 (ISO 20022 2019 release). */
  'pain.002.001.10': { schema: 'pain.002.001.10.xsd', kind: 'pain002' },
  /**
   * The 2009 version most SEPA banks still send, as the EPC implementation guidelines restrict it (the German banking
   * industry's schema): a rejection report only, every status RJCT.
   */
  'pain.002.001.03': { schema: 'pain.002.001.03-dk-sepa.xsd', kind: 'pain002' },
  'camt.054.001.08': { schema: 'camt.054.001.08.xsd', kind: 'camt054' },
  'camt.054.001.02': { schema: 'camt.054.001.02.xsd', kind: 'camt054' },
} as const;
export type BankReportFormat = keyof typeof BANK_REPORT_FORMATS;

/** What the report says of one transfer, named by the end-to-end id our pain.001 gave it. */
export interface BankReportLine {
  endToEndId: string;
  outcome: 'paid' | 'returned' | 'pending';
  /** The ISO reason code (AC04...) of a rejection or a return, when the bank gave one. */
  reasonCode: string | null;
}

export interface BankReport {
  format: BankReportFormat;
  /** The report's own message id (its GrpHdr/MsgId), kept in the audit record. */
  messageId: string;
  /** The message ids of ours the report names (pain.002: OrgnlMsgId; camt.054: each transaction's Refs/MsgId). */
  originalMessageIds: string[];
  /** pain.002 only: the payment information blocks it names, and their status when the whole block has one. */
  blocks: { id: string; outcome: BankReportLine['outcome'] | null; reasonCode: string | null }[];
  /** pain.002 only: the status of the whole file, when the bank gave one. */
  group: { outcome: BankReportLine['outcome']; reasonCode: string | null } | null;
  lines: BankReportLine[];
}

const SCHEMAS = new URL('./schemas/', import.meta.url);
const schemaCache = new Map<string, string>();
const schemaText = (fileName: string) => {
  let text = schemaCache.get(fileName);
  if (text === undefined) {
    text = readFileSync(new URL(fileName, SCHEMAS), 'utf8');
    schemaCache.set(fileName, text);
  }
  return text;
};

/** What libxml2 finds wrong with `xml` against the format's schema; empty when the file is valid. */
export async function bankReportSchemaErrors(xml: string, format: BankReportFormat): Promise<string[]> {
  const { schema } = BANK_REPORT_FORMATS[format];
  const result = await validateXML({
    xml: { fileName: 'report.xml', contents: xml },
    schema: { fileName: schema, contents: schemaText(schema) },
  });
  if (result.valid) return [];
  const errors = result.errors.map((error) => error.rawMessage.trim()).filter(Boolean);
  return errors.length > 0 ? errors : [result.rawOutput || 'invalid'];
}

type Node = Record<string, unknown>;
/** Elements that may repeat, always read as lists (whatever one file holds). */
const REPEATED = new Set(['OrgnlPmtInfAndSts', 'TxInfAndSts', 'StsRsnInf', 'Ntfctn', 'Ntry', 'NtryDtls', 'TxDtls']);
const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // No entity is expanded: a bank file has none, and a file that declares some is refused before (DOCTYPE).
  processEntities: false,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => REPEATED.has(name),
});

const child = (node: unknown, name: string): Node | undefined => {
  const value = (node as Node | undefined)?.[name];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : undefined;
};
const children = (node: unknown, name: string): Node[] => {
  const value = (node as Node | undefined)?.[name];
  return Array.isArray(value) ? (value as Node[]) : [];
};
const text = (node: unknown, ...path: string[]): string | null => {
  let current: unknown = node;
  for (const name of path) current = (current as Node | undefined)?.[name];
  if (typeof current === 'string') return current;
  // An element with attributes (e.g. Amt Ccy="EUR") reads as { '#text': ... }.
  const inner = (current as Node | undefined)?.['#text'];
  return typeof inner === 'string' ? inner : null;
};

/** A pain.002 status: ACSC/ACCC settled (paid), RJCT rejected (returned); any other is still in flight. */
const statusOutcome = (status: string | null): BankReportLine['outcome'] =>
  status === 'ACSC' || status === 'ACCC' ? 'paid' : status === 'RJCT' ? 'returned' : 'pending';
const reasonOf = (node: unknown): string | null =>
  children(node, 'StsRsnInf')
    .map((info) => text(info, 'Rsn', 'Cd'))
    .find((code) => code !== null) ?? null;

function readPain002(document: Node, format: BankReportFormat): BankReport {
  const report = child(document, 'CstmrPmtStsRpt');
  const group = child(report, 'OrgnlGrpInfAndSts');
  const groupStatus = text(group, 'GrpSts');
  const lines: BankReportLine[] = [];
  const blocks: BankReport['blocks'] = [];
  for (const block of children(report, 'OrgnlPmtInfAndSts')) {
    const blockStatus = text(block, 'PmtInfSts');
    blocks.push({
      id: text(block, 'OrgnlPmtInfId') ?? '',
      outcome: blockStatus === null ? null : statusOutcome(blockStatus),
      reasonCode: reasonOf(block),
    });
    for (const transaction of children(block, 'TxInfAndSts')) {
      const status = text(transaction, 'TxSts') ?? blockStatus ?? groupStatus;
      const outcome = statusOutcome(status);
      lines.push({
        endToEndId: text(transaction, 'OrgnlEndToEndId') ?? '',
        outcome,
        reasonCode: outcome === 'returned' ? (reasonOf(transaction) ?? reasonOf(block) ?? reasonOf(group)) : null,
      });
    }
  }
  return {
    format,
    messageId: text(report, 'GrpHdr', 'MsgId') ?? '',
    originalMessageIds: [text(group, 'OrgnlMsgId') ?? ''],
    blocks,
    group: groupStatus === null ? null : { outcome: statusOutcome(groupStatus), reasonCode: reasonOf(group) },
    lines,
  };
}

/** Bank transaction sub-families that mean a transfer came back (ISO external code set: returned credit transfers). */
const RETURN_SUB_FAMILIES = new Set(['RRTN', 'ARET']);

function readCamt054(document: Node, format: BankReportFormat): BankReport {
  const notification = child(document, 'BkToCstmrDbtCdtNtfctn');
  const lines: BankReportLine[] = [];
  const originalMessageIds = new Set<string>();
  for (const entry of children(notification, 'Ntfctn').flatMap((ntfctn) => children(ntfctn, 'Ntry'))) {
    // camt.054.001.02 writes the status as a code, .08 as a choice (Sts/Cd).
    const booked = (text(entry, 'Sts') ?? text(entry, 'Sts', 'Cd')) === 'BOOK';
    const credit = text(entry, 'CdtDbtInd') === 'CRDT';
    const reversal = text(entry, 'RvslInd') === 'true';
    const subFamily = text(entry, 'BkTxCd', 'Domn', 'Fmly', 'SubFmlyCd');
    for (const transaction of children(entry, 'NtryDtls').flatMap((details) => children(details, 'TxDtls'))) {
      const messageId = text(transaction, 'Refs', 'MsgId');
      if (messageId !== null) originalMessageIds.add(messageId);
      const returnReason = text(transaction, 'RtrInf', 'Rsn', 'Cd');
      const returned =
        child(transaction, 'RtrInf') !== undefined || (credit && (RETURN_SUB_FAMILIES.has(subFamily ?? '') || reversal));
      lines.push({
        endToEndId: text(transaction, 'Refs', 'EndToEndId') ?? '',
        outcome: !booked ? 'pending' : returned ? 'returned' : credit ? 'pending' : 'paid',
        reasonCode: booked && returned ? returnReason : null,
      });
    }
  }
  return {
    format,
    messageId: text(notification, 'GrpHdr', 'MsgId') ?? '',
    originalMessageIds: [...originalMessageIds],
    blocks: [],
    group: null,
    lines,
  };
}

/** The namespace of the root element, with or without a prefix (`<Document xmlns=...>`, `<ns:Document xmlns:ns=...>`). */
const rootParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  processEntities: false,
  stopNodes: ['*.*'],
});
function rootNamespace(xml: string): string {
  const root = Object.entries(rootParser.parse(xml) as Node).find(([name]) => !name.startsWith('?'));
  if (!root) return '';
  const [name, element] = root;
  const prefix = name.includes(':') ? name.slice(0, name.indexOf(':')) : null;
  const namespace = (element as Node | undefined)?.[prefix ? `@xmlns:${prefix}` : '@xmlns'];
  return typeof namespace === 'string' ? namespace : '';
}

/**
 * Reads a bank report, or refuses it: not XML (or with a DOCTYPE), not a pain.002/camt.054 version we take, or
 * not valid against its schema (the first error named).
 */
export async function parseBankReport(xml: string): Promise<BankReport> {
  if (Buffer.byteLength(xml, 'utf8') > BANK_REPORT_MAX_CHARS) throw new AppError('payload_too_large');
  if (/<!DOCTYPE/i.test(xml) || XMLValidator.validate(xml) !== true) throw new AppError('bank_report_not_xml');
  const document = child(parser.parse(xml) as Node, 'Document');
  const format = rootNamespace(xml).replace('urn:iso:std:iso:20022:tech:xsd:', '') as BankReportFormat;
  if (!document || !(format in BANK_REPORT_FORMATS)) throw new AppError('bank_report_unsupported');
  const [first] = await bankReportSchemaErrors(xml, format);
  if (first !== undefined) {
    throw new AppError('bank_report_invalid', { validationErrors: { file: [`${format}: ${first}`] } });
  }
  return BANK_REPORT_FORMATS[format].kind === 'pain002' ? readPain002(document, format) : readCamt054(document, format);
}

/** Which payment information block each end-to-end id of our own pain.001 sits in (pain.002 may answer per block). */
export function pain001Blocks(pain001: string): Map<string, string[]> {
  const document = child(parser.parse(pain001) as Node, 'Document');
  const blocks = new Map<string, string[]>();
  const initiation = child(document, 'CstmrCdtTrfInitn');
  const list = (node: unknown, name: string) => {
    const value = (node as Node | undefined)?.[name];
    return (Array.isArray(value) ? value : value ? [value] : []) as Node[];
  };
  for (const block of list(initiation, 'PmtInf')) {
    blocks.set(
      text(block, 'PmtInfId') ?? '',
      list(block, 'CdtTrfTxInf').map((transfer) => text(transfer, 'PmtId', 'EndToEndId') ?? ''),
    );
  }
  return blocks;
}
