/**
 * The one typography filter, applied to every translated text after its placeholders are filled (the web app's
 * i18next post-processor `typography`, the API's `t`), never by hand in a catalog or component: no-break spaces where
 * a line must not break. French high punctuation takes a narrow no-break space before ; ! ? and a no-break space
 * before : and inside « »; in every language an amount keeps its currency and its thousands ("1 234,50 €",
 * "€1 234.50", "2 EUR") and a number its % on one line. Only spaces the text already has are changed (a URL's "?" or
 * a time's "10:15" has none before it), and markup (`<0>`, `<a href="…">`) is left as it is.
 */
export const NBSP = '\u00A0';
export const NARROW_NBSP = '\u202F';

const TAG = /(<[^<>]*>)/;
const SPACES = /[ \u00A0\u202F]/g;

/** An amount with its currency before or after it, thousands separated by spaces ("€1 234.50", "12,50 €", "2 EUR"). */
const AMOUNT = /(?:€ ?)?\d{1,3}(?:[ \u00A0\u202F]\d{3})*(?:[.,]\d+)?(?: ?(?:€|EUR\b))?/g;
const HAS_CURRENCY = /^€|(?:€|EUR)$/;

function commonRules(text: string): string {
  return text
    .replace(AMOUNT, (amount) => (HAS_CURRENCY.test(amount) ? amount.replace(SPACES, NBSP) : amount))
    .replace(/(\d)[ \u202F]%/g, `$1${NBSP}%`);
}

function frenchRules(text: string): string {
  return text
    .replace(/[ \u00A0]([;!?])/g, `${NARROW_NBSP}$1`)
    .replace(/[ \u202F]:/g, `${NBSP}:`)
    .replace(/«[ \u00A0\u202F]?/g, `«${NBSP}`)
    .replace(/[ \u00A0\u202F]?»/g, `${NBSP}»`);
}

/** The text with the no-break spaces its language's typography needs (`language` may be any i18next code). */
export function typeset(text: string, language: string): string {
  if (!/[ \u00A0\u202F«»]/.test(text)) return text;
  const french = language === 'fr';
  return text
    .split(TAG)
    .map((part, index) => {
      if (index % 2 === 1) return part;
      const common = commonRules(part);
      return french ? frenchRules(common) : common;
    })
    .join('');
}
