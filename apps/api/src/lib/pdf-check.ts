import { constants, inflateSync } from 'node:zlib';
import { getDocumentProxy } from 'unpdf';

/** HTML right behind the `%PDF` header: a polyglot a browser sniffing the bytes would render as a page. */
const HTML_NEAR_START = /<\s*(?:!doctype|html|head|body|script|iframe|svg|img)\b/i;
/** Only the start is scanned for HTML: compressed streams further on hold arbitrary bytes that may look like anything. */
const SCANNED_BYTES = 1024;

/**
 * Names that make a PDF do something when opened or clicked: run script, start a program, open a link, submit or
 * import data, open another document, play media, or carry files of its own (ISO 32000-1 §12.6, §7.11.4, §12.7.8).
 * `/OpenAction` is handled apart: a plain destination ("open at page 1", which LibreOffice writes) is harmless.
 */
const ACTIVE_NAMES = new Set([
  'JS',
  'JavaScript',
  'AA',
  'Launch',
  'URI',
  'EmbeddedFile',
  'EmbeddedFiles',
  'EF',
  'FileAttachment',
  'XFA',
  'RichMedia',
  'GoToR',
  'GoToE',
  'SubmitForm',
  'ImportData',
  // Media that plays, or fetches what it plays (a URL file specification), and 3D models, which carry their own scripts.
  'Rendition',
  'Movie',
  'Sound',
  '3D',
  'URL',
]);

/** Object streams inflate at most to this, in all (a deflate bomb otherwise). */
const MAX_INFLATED_BYTES = 64 * 1024 * 1024;
/** Bytes the scan may read per byte of input before it gives up (overlapping objects could make it quadratic). */
const WORK_PER_BYTE = 8;
/** Deeper nesting than any real document has; the parser recurses. */
const MAX_DEPTH = 64;

export type PdfVerdict = 'safe' | 'active_content' | 'invalid';

/**
 * What bytes that start with `%PDF` are: a PDF a reader can open with nothing active (`safe`), one that would run,
 * launch, link, submit or carry something when an operator opens it (`active_content`), or not a PDF this check can
 * read (`invalid`). The active content is found by scanning every object the file holds, wherever it hides (see
 * `findActiveContent`); pdf.js (scripting off) opening the document and its first page is the structural test.
 */
export async function checkPdf(bytes: Buffer): Promise<PdfVerdict> {
  try {
    const scan = findActiveContent(bytes);
    if (scan === 'unreadable') return 'invalid';
    if (scan.length > 0) return 'active_content';
    if (HTML_NEAR_START.test(bytes.subarray(0, SCANNED_BYTES).toString('latin1'))) return 'invalid';
    const document = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: true, verbosity: 0 });
    try {
      if (document.numPages < 1) return 'invalid';
      await document.getPage(1);
      // pdf.js's own view of scripts and attachments: a second opinion on what the scan must already have found.
      if ((await document.getJSActions()) !== null || (await document.getAttachments()) !== null) return 'active_content';
      return 'safe';
    } finally {
      await document.destroy();
    }
  } catch {
    // Whatever neither the scan nor pdf.js could read is refused, never stored unchecked.
    return 'invalid';
  }
}

type Value =
  | { kind: 'name'; name: string }
  | { kind: 'dict'; entries: Map<string, Value> }
  | { kind: 'array'; items: Value[] }
  | { kind: 'other'; text: string };

class Unreadable extends Error {}

/**
 * The active names (decoded) found in the PDF's objects, or `unreadable` when some of them cannot be read. Readers
 * find objects through the cross-reference table, or, when it is broken, by looking for `N G obj` anywhere; an
 * attacker can point the table into another stream's data. So what follows every `obj` keyword in the file is
 * parsed, wherever it is, and every object stream (compressed objects, PDF 1.5) is inflated and parsed too. Names
 * are compared after `#xx` escapes are decoded (`/J#61vaScript` is `/JavaScript` to a reader); strings and stream
 * data are skipped, so text that mentions `/JS` and image bytes do not count. An object stream that cannot be
 * decoded (an unknown filter, a predictor, encryption) makes the file unreadable: what it holds could not be checked.
 */
export function findActiveContent(bytes: Buffer): string[] | 'unreadable' {
  const found = new Set<string>();
  const budget = { work: bytes.length * WORK_PER_BYTE, inflated: MAX_INFLATED_BYTES };
  let encrypted = false;
  let objectStreams = 0;
  /** Objects an /OpenAction points to, and whether every version of each found is a plain destination (an array). */
  const openActionTargets = new Set<number>();
  const destinations = new Map<number, boolean>();
  const define = (number: number, value: Value) =>
    destinations.set(number, (destinations.get(number) ?? true) && value.kind === 'array');
  const visit = (value: Value) => {
    if (value.kind === 'name' && ACTIVE_NAMES.has(value.name)) found.add(value.name);
    if (value.kind === 'dict') {
      const openAction = value.entries.get('OpenAction');
      const reference = openAction?.kind === 'other' ? /^(\d+) \d+ R$/.exec(openAction.text) : null;
      if (reference) openActionTargets.add(Number(reference[1]));
      else if (openAction && openAction.kind !== 'array') found.add('OpenAction');
      if (value.entries.has('Encrypt')) encrypted = true;
    }
  };
  try {
    const text = bytes.toString('latin1');
    // Every `obj` keyword, not only after a plain `N G `: readers also take comments between those tokens.
    for (let at = text.indexOf('obj'); at >= 0; at = text.indexOf('obj', at + 3)) {
      const before = bytes[at - 1];
      const after = bytes[at + 3];
      if ((before !== undefined && isRegular(before) && !isDigit(before)) || (after !== undefined && isRegular(after))) continue;
      const parser = new Parser(bytes, at + 3, budget, visit);
      const value = parser.value(0);
      const header = /(\d{1,10})[\0\t\n\f\r ]+\d{1,5}[\0\t\n\f\r ]*$/.exec(text.slice(Math.max(0, at - 32), at));
      if (header) define(Number(header[1]), value);
      if (value.kind !== 'dict' || !parser.atKeyword('stream')) continue;
      if (!isObjectStream(value.entries)) continue;
      objectStreams += 1;
      const inner = decodeStream(parser.streamData(value.entries), value.entries, budget);
      if (!inner) throw new Unreadable();
      budget.work += inner.length * WORK_PER_BYTE;
      // All of it, in order, for the names; then each object where its offset puts it, as readers take it.
      const all = new Parser(inner, 0, budget, visit);
      while (!all.atEnd()) all.value(0);
      const first = integer(value.entries.get('First'));
      const count = integer(value.entries.get('N'));
      if (first === null || count === null) throw new Unreadable();
      const pairs = new Parser(inner, 0, budget, () => undefined);
      for (let index = 0; index < count; index += 1) {
        const number = integer(pairs.value(0));
        const offset = integer(pairs.value(0));
        if (number === null || offset === null) throw new Unreadable();
        define(number, new Parser(inner, first + offset, budget, () => undefined).value(0));
      }
    }
    // The trailer is no object, but carries /Encrypt on files with a classic cross-reference table.
    for (const trailer of text.matchAll(/trailer/g)) new Parser(bytes, trailer.index + trailer[0].length, budget, visit).value(0);
  } catch (error) {
    if (error instanceof Unreadable) return 'unreadable';
    throw error;
  }
  // Encrypted object streams decode to noise here, though a reader with the (often empty) password sees objects.
  if (encrypted && objectStreams > 0) return 'unreadable';
  // An /OpenAction through a reference: a destination only when the object it names is one, in every version found.
  if ([...openActionTargets].some((number) => destinations.get(number) !== true)) found.add('OpenAction');
  return [...found];
}

/** /Type /ObjStm, or what pdf.js takes for one when the cross-reference stream names it: /N and /First. */
function isObjectStream(entries: Map<string, Value>): boolean {
  const type = entries.get('Type');
  return (type?.kind === 'name' && type.name === 'ObjStm') || (entries.has('N') && entries.has('First'));
}

/** A stream's data through its filters; null when a filter or its parameters are not ones read here. */
function decodeStream(data: Buffer, entries: Map<string, Value>, budget: { inflated: number }): Buffer | null {
  // /F: the data lives in another file, which no check here can see.
  if (entries.has('F')) return null;
  const filter = entries.get('Filter');
  const filters = !filter ? [] : filter.kind === 'name' ? [filter] : filter.kind === 'array' ? filter.items : [filter];
  const parms = entries.get('DecodeParms');
  const parmsList = !parms ? [] : parms.kind === 'array' ? parms.items : [parms];
  // A predictor (PNG or TIFF row filters) is never used on object streams by real writers.
  const plain = (value: Value) =>
    (value.kind === 'other' && value.text === 'null') ||
    (value.kind === 'dict' && (!value.entries.has('Predictor') || isText(value.entries.get('Predictor'), '1')));
  if (!parmsList.every(plain)) return null;
  let out = data;
  for (const name of filters) {
    if (name.kind !== 'name' || name.name !== 'FlateDecode') return null;
    try {
      // A sync flush keeps what a truncated stream holds, as readers do, rather than failing on it.
      out = inflateSync(out, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: budget.inflated });
    } catch {
      return null;
    }
    budget.inflated -= out.length;
  }
  return out;
}

const integer = (value: Value | undefined) =>
  value?.kind === 'other' && /^\d{1,10}$/.test(value.text) ? Number(value.text) : null;
const isText = (value: Value | undefined, text: string) => value?.kind === 'other' && value.text === text;

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([...'()<>[]{}/%'].map((c) => c.charCodeAt(0)));
const isRegular = (byte: number) => !WHITESPACE.has(byte) && !DELIMITERS.has(byte);
const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;
const isHex = (byte: number) =>
  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);

/** A PDF object parser (ISO 32000-1 §7.2–7.3) just deep enough to see names, dictionaries and where streams start. */
class Parser {
  private position: number;

  constructor(
    private readonly bytes: Buffer,
    start: number,
    private readonly budget: { work: number },
    private readonly visit: (value: Value) => void,
  ) {
    this.position = start;
  }

  atEnd(): boolean {
    this.skipSpace();
    return this.position >= this.bytes.length;
  }

  /** Whether the next token is this keyword (consumed when it is). */
  atKeyword(keyword: string): boolean {
    this.skipSpace();
    const end = this.position + keyword.length;
    if (this.bytes.toString('latin1', this.position, end) !== keyword || (end < this.bytes.length && isRegular(this.bytes[end]!)))
      return false;
    this.position = end;
    return true;
  }

  /**
   * The data of the stream whose keyword was just read: /Length bytes when a direct length lands on `endstream`,
   * otherwise up to the next `endstream`, as readers fall back to.
   */
  streamData(entries: Map<string, Value>): Buffer {
    if (this.bytes[this.position] === 0x0d) this.position += 1;
    if (this.bytes[this.position] === 0x0a) this.position += 1;
    const start = this.position;
    const length = entries.get('Length');
    if (length?.kind === 'other' && /^\d+$/.test(length.text)) {
      const end = start + Number(length.text);
      const after = this.bytes.toString('latin1', end, end + 20);
      if (/^[\0\t\n\f\r ]*endstream/.test(after)) return this.bytes.subarray(start, end);
    }
    const end = this.bytes.indexOf('endstream', start, 'latin1');
    this.spend((end < 0 ? this.bytes.length : end) - start);
    return this.bytes.subarray(start, end < 0 ? this.bytes.length : end);
  }

  /** One value; names and dictionaries are reported to `visit` as they are read. */
  value(depth: number): Value {
    if (depth > MAX_DEPTH) throw new Unreadable();
    this.skipSpace();
    const bytes = this.bytes;
    const byte = bytes[this.position];
    if (byte === undefined) return { kind: 'other', text: '' };
    if (byte === 0x2f) {
      const value: Value = { kind: 'name', name: this.name() };
      this.visit(value);
      return value;
    }
    if (byte === 0x3c && bytes[this.position + 1] === 0x3c) {
      this.position += 2;
      const entries = new Map<string, Value>();
      for (;;) {
        this.skipSpace();
        if (this.position >= bytes.length) break;
        if (bytes[this.position] === 0x3e && bytes[this.position + 1] === 0x3e) {
          this.position += 2;
          break;
        }
        const key = this.value(depth + 1);
        // pdf.js skips a key that is no name and reads on to `>>`: so does this, or it would miss what follows.
        if (key.kind !== 'name') continue;
        entries.set(key.name, this.referenceOr(this.value(depth + 1)));
      }
      const dict: Value = { kind: 'dict', entries };
      this.visit(dict);
      return dict;
    }
    if (byte === 0x5b) {
      this.position += 1;
      const items: Value[] = [];
      for (;;) {
        this.skipSpace();
        if (this.position >= bytes.length) break;
        if (bytes[this.position] === 0x5d) {
          this.position += 1;
          break;
        }
        items.push(this.value(depth + 1));
      }
      return { kind: 'array', items };
    }
    if (byte === 0x28) {
      this.literalString();
      return { kind: 'other', text: '(string)' };
    }
    if (byte === 0x3c) {
      const end = bytes.indexOf(0x3e, this.position);
      this.spend((end < 0 ? bytes.length : end) - this.position);
      this.position = end < 0 ? bytes.length : end + 1;
      return { kind: 'other', text: '<string>' };
    }
    const start = this.position;
    if (DELIMITERS.has(byte)) this.position += 1; // A stray `)`, `>`, `]`, `{` or `}`.
    while (this.position < bytes.length && isRegular(bytes[this.position]!)) this.position += 1;
    this.spend(this.position - start);
    return { kind: 'other', text: bytes.toString('latin1', start, this.position) };
  }

  /** `N G R` read as one value, so a dictionary entry holding a reference is seen as neither array nor dictionary. */
  private referenceOr(value: Value): Value {
    if (value.kind !== 'other' || !/^\d+$/.test(value.text)) return value;
    const rest = /^[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+R(?![^\0\t\n\f\r ()<>[\]{}/%])/.exec(
      this.bytes.toString('latin1', this.position, this.position + 64),
    );
    if (!rest) return value;
    this.position += rest[0].length;
    return { kind: 'other', text: `${value.text} ${rest[1]} R` };
  }

  /** A name with its `#xx` escapes decoded; a `#` not followed by two hex digits stays, as pdf.js reads it. */
  private name(): string {
    const bytes = this.bytes;
    const out: number[] = [];
    this.position += 1;
    while (this.position < bytes.length && isRegular(bytes[this.position]!)) {
      const byte = bytes[this.position]!;
      if (byte === 0x23 && isHex(bytes[this.position + 1] ?? 0) && isHex(bytes[this.position + 2] ?? 0)) {
        out.push(Number.parseInt(bytes.toString('latin1', this.position + 1, this.position + 3), 16));
        this.position += 3;
      } else {
        out.push(byte);
        this.position += 1;
      }
    }
    this.spend(out.length);
    return Buffer.from(out).toString('latin1');
  }

  /** `( … )` with nested parentheses and backslash escapes. */
  private literalString(): void {
    const bytes = this.bytes;
    const start = this.position;
    let open = 0;
    while (this.position < bytes.length) {
      const byte = bytes[this.position]!;
      this.position += 1;
      if (byte === 0x5c) this.position += 1;
      else if (byte === 0x28) open += 1;
      else if (byte === 0x29 && --open === 0) break;
    }
    this.spend(this.position - start);
  }

  private skipSpace(): void {
    const bytes = this.bytes;
    const start = this.position;
    while (this.position < bytes.length) {
      const byte = bytes[this.position]!;
      if (WHITESPACE.has(byte)) this.position += 1;
      else if (byte === 0x25) {
        while (this.position < bytes.length && bytes[this.position] !== 0x0a && bytes[this.position] !== 0x0d) this.position += 1;
      } else break;
    }
    this.spend(this.position - start);
  }

  private spend(amount: number): void {
    this.budget.work -= amount + 1;
    if (this.budget.work < 0) throw new Unreadable();
  }
}
