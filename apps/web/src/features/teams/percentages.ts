/**
 * A percentage as typed ("70", "33,34", "33.3", "12 %") in basis points (10000 = 100 %), or null when it is not one:
 * at most two decimals, from 0 to 100. Integer maths only, like money.
 */
export function basisPointsOf(text: string): number | null {
  const match = /^(\d{1,3})(?:[.,](\d{0,2}))?$/.exec(text.replace(/[\s\u00a0]*%$/, '').trim());
  if (!match) return null;
  const points = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return points <= 10_000 ? points : null;
}

/** Basis points as an input field's value: a point, no separator, no trailing zeros ("33.34", "70"). */
export function percentInput(basisPoints: number): string {
  const whole = Math.floor(basisPoints / 100);
  const rest = basisPoints % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
}
