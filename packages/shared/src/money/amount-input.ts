/**
 * Integer cents from what a person types: "5", "5.5", "5,50", "1 000", "€7". Strings only, never floats, so "0.29"
 * is 29 cents exactly. Null when it is not an amount (letters, a sign, three decimals, two separators, more than
 * 9 999 999 euros). `euroSign: false` refuses a typed € too, where the field asks for a number alone (the withdrawal).
 */
export function parseAmountInput(text: string, { euroSign = true }: { euroSign?: boolean } = {}): number | null {
  const cleaned = text.replace(euroSign ? /[\s\u00a0\u202f€]/g : /[\s\u00a0\u202f]/g, '').replace(',', '.');
  const match = /^(\d{1,7})(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (!match) return null;
  const euros = Number(match[1]);
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  return euros * 100 + cents;
}
