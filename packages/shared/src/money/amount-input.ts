/**
 * Integer cents from what a person types: "5", "5.5", "5,50", "1 000", "€7". Strings only, never floats, so "0.29"
 * is 29 cents exactly. Null when it is not an amount (letters, three decimals, two separators).
 */
export function parseAmountInput(text: string): number | null {
  const cleaned = text.replace(/[\s\u00a0\u202f€]/g, '').replace(',', '.');
  const match = /^(\d{1,7})(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (!match) return null;
  const euros = Number(match[1]);
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  return euros * 100 + cents;
}
