/**
 * The EPC SEPA character set (EPC217-08 "Latin" basic set): a–z A–Z 0–9 / - ? : ( ) . , ' + and space. Banks
 * may reject anything else, so names and addresses are transliterated to it: accents dropped, a few ligatures and
 * letters without a decomposition spelled out, the rest turned into spaces.
 */
const SPELLED: Record<string, string> = {
  ß: 'ss',
  Æ: 'AE',
  æ: 'ae',
  Ø: 'O',
  ø: 'o',
  Œ: 'OE',
  œ: 'oe',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Þ: 'TH',
  þ: 'th',
  ı: 'i',
  '&': '+',
  '"': "'",
  '’': "'",
  '‘': "'",
  '–': '-',
  '—': '-',
  _: '-',
};

export function toEpcText(text: string, maxLength: number): string {
  const spelled = [...text].map((char) => SPELLED[char] ?? char).join('');
  const latin = spelled.normalize('NFD').replace(/\p{Mn}/gu, '');
  const cleaned = latin
    .replace(/[^a-zA-Z0-9/\-?:().,'+ ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.slice(0, maxLength).trim();
}

/**
 * An identifier (MsgId, PmtInfId, EndToEndId): EPC characters without spaces, and, as the EPC rules for references
 * say, not starting or ending with '/' and never '//'.
 */
export function toEpcId(text: string, maxLength = 35): string {
  const id = text
    .replace(/[^a-zA-Z0-9\-?:().,'+/]/g, '')
    .replace(/\/{2,}/g, '/')
    .replace(/^\/+|\/+$/g, '')
    .slice(0, maxLength);
  if (!id) throw new Error(`"${text}" leaves no identifier in the EPC character set`);
  return id;
}
