import QRCode from 'qrcode';

/** The brand's dark blue, used when the caller names no colour. */
export const DEFAULT_QR_COLOR = '#0b2a5b';
const PNG_WIDTH = 512;

export type QrFormat = 'png' | 'svg';

/** '#1A2B4C' or '1a2b4c' → '#1a2b4c'; the query schema has already checked the shape. */
export function normalizeHexColor(hexColor: string | undefined): string {
  if (!hexColor) return DEFAULT_QR_COLOR;
  return `#${hexColor.replace(/^#/, '').toLowerCase()}`;
}

/** The q-value the Accept header gives a media type, taking the most specific matching range (RFC 9110 §12.5.1). */
function qualityOf(ranges: { type: string; q: number }[], mediaType: string): number {
  const [major] = mediaType.split('/');
  const exact = ranges.find((range) => range.type === mediaType);
  if (exact) return exact.q;
  const sameMajor = ranges.find((range) => range.type === `${major}/*`);
  if (sameMajor) return sameMajor.q;
  return ranges.find((range) => range.type === '*/*')?.q ?? 0;
}

/** SVG only when the Accept header prefers it to PNG; PNG otherwise (also with no header or `*∕*`). */
export function pickQrFormat(accept: string | undefined): QrFormat {
  if (!accept) return 'png';
  const ranges = accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return { type, q: Number.isFinite(q) ? q : 0 };
  });
  const svg = qualityOf(ranges, 'image/svg+xml');
  const png = qualityOf(ranges, 'image/png');
  if (svg > png) return 'svg';
  if (svg === png && svg > 0) {
    // A tie between two named types goes to the one listed first.
    const svgAt = ranges.findIndex((range) => range.type === 'image/svg+xml');
    const pngAt = ranges.findIndex((range) => range.type === 'image/png');
    if (svgAt !== -1 && (pngAt === -1 || svgAt < pngAt)) return 'svg';
  }
  return 'png';
}

const qrOptions = (color: string) =>
  ({
    errorCorrectionLevel: 'M',
    margin: 2,
    width: PNG_WIDTH,
    color: { dark: color, light: '#ffffff' },
  }) as const;

/** The QR code of `text`: dark modules in `color` on white, error correction M, a 2-module quiet zone. */
export async function renderQrCode(
  text: string,
  color: string,
  format: QrFormat,
): Promise<{ mime: string; body: Buffer | string }> {
  if (format === 'svg') {
    return { mime: 'image/svg+xml; charset=utf-8', body: await QRCode.toString(text, { ...qrOptions(color), type: 'svg' }) };
  }
  return { mime: 'image/png', body: await QRCode.toBuffer(text, { ...qrOptions(color), type: 'png' }) };
}
