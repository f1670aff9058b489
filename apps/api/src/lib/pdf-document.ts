import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import type { Locale } from '@tipcard/shared/constants';

const require = createRequire(import.meta.url);
/**
 * Inter, the site's typeface, as TrueType from an npm package: pdfkit's built-in fonts are WinAnsi only and cannot
 * write Latvian letters (ā, č, ē, ģ, ī, ķ, ļ, ņ, š, ū, ž). pdfkit embeds only the glyphs a document uses.
 */
const FONT_FILES = {
  regular: require.resolve('@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf'),
  semibold: require.resolve('@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf'),
  bold: require.resolve('@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf'),
} as const;
export type FontWeight = keyof typeof FONT_FILES;

/** The product's look on paper: the web app's dark blue and teal (apps/web/src/index.css). */
export const COLORS = {
  ink: '#0b1736',
  primary: '#1a3168',
  primarySoft: '#eef3fb',
  accent: '#2dd4bf',
  text: '#1e293b',
  muted: '#475569',
  line: '#e2e8f0',
  white: '#ffffff',
} as const;

/** A4 in points. */
export const A4 = { width: 595.28, height: 841.89 } as const;
export const MM = 72 / 25.4;

export type Pdf = InstanceType<typeof PDFDocument>;

export function createPdf(options: {
  title: string;
  locale: Locale;
  author?: string | undefined;
  size?: [number, number] | undefined;
}): Pdf {
  const doc = new PDFDocument({
    size: options.size ?? 'A4',
    margin: 0,
    lang: options.locale,
    displayTitle: true,
    info: { Title: options.title, Author: options.author ?? 'Tipcard', Creator: 'Tipcard' },
  });
  for (const [weight, file] of Object.entries(FONT_FILES)) doc.registerFont(weight, file);
  doc.font('regular');
  return doc;
}

/** Ends the document and collects its bytes. */
export function pdfBytes(doc: Pdf): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** Sets font, size and colour in one call. */
export function style(doc: Pdf, weight: FontWeight, size: number, color: string): Pdf {
  return doc.font(weight).fontSize(size).fillColor(color);
}

/** The logo: the QR-like mark of the web app (components/ui/logo.tsx) and the word "Tipcard". */
export function drawLogo(doc: Pdf, x: number, y: number, size: number, tone: 'dark' | 'light'): void {
  const unit = size / 32;
  doc.save();
  // On the dark band the mark is a translucent white square, as in the web app's inverted logo.
  if (tone === 'dark')
    doc
      .fillOpacity(0.15)
      .roundedRect(x, y, size, size, 9 * unit)
      .fill(COLORS.white)
      .fillOpacity(1);
  else doc.roundedRect(x, y, size, size, 9 * unit).fill(COLORS.primary);
  for (const [sx, sy] of [
    [8.5, 8.5],
    [17.5, 8.5],
    [8.5, 17.5],
  ] as const) {
    doc.rect(x + sx * unit, y + sy * unit, 6 * unit, 6 * unit).fill(COLORS.white);
  }
  for (const [sx, sy] of [
    [17.5, 17.5],
    [21, 21],
    [17.5, 21],
    [21, 17.5],
  ] as const) {
    doc.rect(x + sx * unit, y + sy * unit, 2.5 * unit, 2.5 * unit).fill('#5eead4');
  }
  doc.restore();
  style(doc, 'bold', size * 0.62, tone === 'dark' ? COLORS.white : COLORS.ink).text(
    'Tipcard',
    x + size + size * 0.3,
    y + size * 0.17,
    {
      lineBreak: false,
    },
  );
}

/** A thin grey rule across a table or above small print, from x over the width, at y. */
export function drawHairline(doc: Pdf, x: number, y: number, width: number): void {
  doc
    .moveTo(x, y)
    .lineTo(x + width, y)
    .lineWidth(0.5)
    .strokeColor(COLORS.line)
    .stroke();
}

/** Small print at the bottom of a page: the operator's details as configured, then the site address. */
export function drawFooter(doc: Pdf, lines: string[], margin: number): void {
  const text = lines.filter(Boolean).join('   ·   ');
  const y = A4.height - margin - 24;
  drawHairline(doc, margin, y - 10, A4.width - margin * 2);
  style(doc, 'regular', 8, COLORS.muted).text(text, margin, y, { width: A4.width - margin * 2, align: 'center', lineGap: 2 });
}
