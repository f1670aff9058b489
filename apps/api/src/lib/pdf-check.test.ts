import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { isSafePdf } from './pdf-check.ts';

function pdfkitPdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.text('Passport scan');
    doc.end();
  });
}

/** A minimal hand-written PDF whose catalog runs JavaScript when opened. */
function pdfWithJavaScript(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /Names << /JavaScript << /Names [(a) 4 0 R] >> >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    '<< /S /JavaScript /JS (app.alert\\(1\\)) >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

describe('isSafePdf', () => {
  it('opens a real PDF', async () => {
    expect(await isSafePdf(await pdfkitPdf())).toBe(true);
  });

  it('refuses %PDF followed by HTML or script, garbage, and a PDF that runs JavaScript', async () => {
    expect(await isSafePdf(Buffer.from('%PDF-1.7\n<html><body><script>alert(document.cookie)</script></body></html>'))).toBe(false);
    expect(await isSafePdf(Buffer.from('%PDF-1.4\n<script>fetch("/api/me")</script>'))).toBe(false);
    expect(await isSafePdf(Buffer.from('%PDF-1.4\nthis is not a document at all'))).toBe(false);
    expect(await isSafePdf(pdfWithJavaScript())).toBe(false);
  });
});
