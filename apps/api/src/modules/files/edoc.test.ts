import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.ts';
import { readZip, zip, type ZipEntry } from '../../lib/zip.ts';
import { normalizeDocument } from './document.ts';
import { EDOC_MIME, edocDataFiles } from './edoc.ts';
import { textPdf } from '../../test/pdf.ts';

const WHEN = new Date('2026-03-01T10:00:00Z');
const LIMITS = { maxEntries: 10, maxTotalBytes: 1024 * 1024 };

const pdf = textPdf('Contract');

const MIMETYPE: ZipEntry = { name: 'mimetype', content: EDOC_MIME, stored: true };
const SIGNATURE: ZipEntry = { name: 'META-INF/signatures0.xml', content: '<?xml version="1.0"?><asic:XAdESSignatures/>' };
const container = (entries: ZipEntry[]) => zip(entries, WHEN);

describe('readZip', () => {
  it('reads what zip writes, stored and deflated, in order', () => {
    const entries = readZip(container([MIMETYPE, { name: 'a/Līgums.txt', content: 'ā'.repeat(1000) }]), LIMITS);
    expect(entries).toEqual([
      { name: 'mimetype', stored: true, content: Buffer.from(EDOC_MIME) },
      { name: 'a/Līgums.txt', stored: false, content: Buffer.from('ā'.repeat(1000)) },
    ]);
  });

  it('refuses bytes that belong to no entry: before, between, after', () => {
    const bytes = container([MIMETYPE, { name: 'b.txt', content: 'b' }]);
    expect(readZip(Buffer.concat([Buffer.from('MZ'), bytes]), LIMITS)).toBeNull();
    expect(readZip(Buffer.concat([bytes, Buffer.from('<script>')]), LIMITS)).toBeNull();
    // A gap between the two entries: the second one's offset (and the directory's) moved on by 8 bytes.
    const second = 30 + 'mimetype'.length + EDOC_MIME.length;
    const gapped = Buffer.concat([bytes.subarray(0, second), Buffer.from('<script>'), bytes.subarray(second)]);
    const directory = gapped.readUInt32LE(gapped.length - 6);
    gapped.writeUInt32LE(directory + 8, gapped.length - 6);
    gapped.writeUInt32LE(second + 8, directory + 8 + 46 + 'mimetype'.length + 42);
    expect(readZip(gapped, LIMITS)).toBeNull();
  });

  it('refuses a bomb before inflating it, and an entry that inflates beyond the size it claims', () => {
    expect(readZip(container([{ name: 'zeros', content: new Uint8Array(LIMITS.maxTotalBytes + 1) }]), LIMITS)).toBeNull();
    const lying = container([{ name: 'zeros', content: new Uint8Array(100_000) }]);
    const directory = lying.readUInt32LE(lying.length - 6);
    lying.writeUInt32LE(10, directory + 24);
    lying.writeUInt32LE(10, 22);
    expect(readZip(lying, LIMITS)).toBeNull();
  });

  it('refuses too many entries, a wrong CRC, encryption, names the local header and directory disagree on', () => {
    const many = Array.from({ length: LIMITS.maxEntries + 1 }, (_, i) => ({ name: `${i}.txt`, content: 'x' }));
    expect(readZip(container(many), LIMITS)).toBeNull();
    const crc = container([{ name: 'a.txt', content: 'a' }]);
    crc.writeUInt32LE((crc.readUInt32LE(14) ^ 1) >>> 0, 14);
    crc.writeUInt32LE((crc.readUInt32LE(crc.readUInt32LE(crc.length - 6) + 16) ^ 1) >>> 0, crc.readUInt32LE(crc.length - 6) + 16);
    expect(readZip(crc, LIMITS)).toBeNull();
    const encrypted = container([{ name: 'a.txt', content: 'a' }]);
    encrypted.writeUInt16LE(
      encrypted.readUInt16LE(encrypted.readUInt32LE(encrypted.length - 6) + 8) | 1,
      encrypted.readUInt32LE(encrypted.length - 6) + 8,
    );
    expect(readZip(encrypted, LIMITS)).toBeNull();
    const renamed = container([{ name: 'a.pdf', content: 'a' }]);
    renamed.write('a.exe', 30, 'latin1');
    expect(readZip(renamed, LIMITS)).toBeNull();
    expect(readZip(Buffer.from(deflateRawSync(Buffer.from('not a zip'))), LIMITS)).toBeNull();
  });
  it('answers for damaged and truncated archives without throwing', () => {
    const base = container([MIMETYPE, { name: 'a.txt', content: 'ā'.repeat(500) }, SIGNATURE]);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 24 }), fc.nat(), (changes, cut) => {
        const bytes = Buffer.from(base);
        for (const [at, byte] of changes) bytes[at % bytes.length] = byte;
        const entries = readZip(bytes.subarray(cut % 3 === 0 ? cut % bytes.length : 0), LIMITS);
        expect(entries === null || Array.isArray(entries)).toBe(true);
      }),
    );
  });
});

describe('edocDataFiles', () => {
  it('gives the documents of a real ASiC-E container', async () => {
    const bytes = container([
      MIMETYPE,
      { name: 'Līgums.pdf', content: await pdf },
      { name: 'META-INF/manifest.xml', content: '<manifest/>' },
      SIGNATURE,
    ]);
    expect(edocDataFiles(bytes)).toEqual([{ name: 'Līgums.pdf', content: await pdf }]);
    const cades = container([
      MIMETYPE,
      { name: 'a.pdf', content: await pdf },
      { name: 'META-INF/signature001.p7s', content: Buffer.from([0x30, 0x82, 0x01]) },
    ]);
    expect(edocDataFiles(cades)).toHaveLength(1);
  });

  it('refuses a container that breaks the format: mimetype compressed or not first, no signature, no document', async () => {
    const document = { name: 'a.pdf', content: await pdf };
    expect(edocDataFiles(container([{ ...MIMETYPE, stored: false }, document, SIGNATURE]))).toBeNull();
    expect(edocDataFiles(container([document, MIMETYPE, SIGNATURE]))).toBeNull();
    expect(edocDataFiles(container([{ ...MIMETYPE, content: 'application/zip' }, document, SIGNATURE]))).toBeNull();
    expect(edocDataFiles(container([MIMETYPE, document]))).toBeNull();
    expect(edocDataFiles(container([MIMETYPE, SIGNATURE]))).toBeNull();
  });

  it('refuses META-INF holding anything but the container’s own files, and names that climb out of a folder', async () => {
    const document = { name: 'a.pdf', content: await pdf };
    expect(edocDataFiles(container([MIMETYPE, document, SIGNATURE, { name: 'META-INF/run.exe', content: 'MZ' }]))).toBeNull();
    expect(
      edocDataFiles(container([MIMETYPE, document, { name: 'META-INF/signatures0.xml', content: 'MZ not xml' }])),
    ).toBeNull();
    expect(edocDataFiles(container([MIMETYPE, { ...document, name: '../../Startup/a.pdf' }, SIGNATURE]))).toBeNull();
    expect(edocDataFiles(container([MIMETYPE, { ...document, name: 'C:/a.pdf' }, SIGNATURE]))).toBeNull();
  });
});

describe('normalizeDocument: .edoc', () => {
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'stored',
      (error: unknown) => (error instanceof AppError ? error.code : error),
    );

  it('keeps a container byte for byte when every document in it passes the upload checks', async () => {
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    const bytes = container([MIMETYPE, { name: 'a.pdf', content: await pdf }, { name: 'scan.jpg', content: jpeg }, SIGNATURE]);
    const stored = await normalizeDocument('content', bytes.toString('base64'), { edoc: true });
    expect(stored.mime).toBe(EDOC_MIME);
    expect(stored.content.equals(bytes)).toBe(true);
  });

  it('refuses one whose document is of another type or an image that does not decode; verification takes none', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const html = container([MIMETYPE, { name: 'a.html', content: '<script>alert(1)</script>' }, SIGNATURE]);
    expect(await refusal(normalizeDocument('content', html.toString('base64'), { edoc: true }))).toBe('invalid_file');
    const broken = container([MIMETYPE, { name: 'a.png', content: png.subarray(0, 60) }, SIGNATURE]);
    expect(await refusal(normalizeDocument('content', broken.toString('base64'), { edoc: true }))).toBe('invalid_file');
    const real = container([MIMETYPE, { name: 'a.pdf', content: await pdf }, SIGNATURE]);
    expect(await refusal(normalizeDocument('content', real.toString('base64')))).toBe('invalid_file');
  });
});
