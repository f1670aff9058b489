import PDFDocument from 'pdfkit';
import { extractText } from 'unpdf';

/** A real PDF drawn by pdfkit, for tests of what accepts or refuses uploaded PDFs. */
export function pdfkitPdf(draw: (doc: InstanceType<typeof PDFDocument>) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

/** A one-page PDF of one line of text. */
export const textPdf = (text: string) => pdfkitPdf((doc) => doc.text(text));

/** The text of every page of a PDF as pdf.js extracts it, runs of whitespace made one space. */
export async function textOfPdf(bytes: Uint8Array): Promise<string> {
  // A copy: pdf.js may take over (detach) the buffer it is handed.
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}
