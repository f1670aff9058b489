/**
 * Splits `amount` cents over parts in proportion to their sizes (largest remainder: each part gets the floor of its
 * exact share, the cents left over go to the largest fractions, earlier parts first on ties). Integers only: the
 * shares sum to `amount` exactly, and no part gets more than its size while `amount` is at most their sum.
 */
export function proportionalSplit(amount: number, sizes: readonly number[]): number[] {
  const whole = sizes.reduce((sum, size) => sum + size, 0);
  if (!Number.isSafeInteger(amount) || amount < 0 || amount > whole) throw new RangeError(`Cannot split ${amount} over ${whole}`);
  if (whole === 0) return sizes.map(() => 0);
  const shares = sizes.map((size) => Math.floor((amount * size) / whole));
  const remainders = sizes.map((size, index) => ({ index, remainder: (amount * size) % whole }));
  let left = amount - shares.reduce((sum, share) => sum + share, 0);
  for (const { index } of remainders.sort((a, b) => b.remainder - a.remainder || a.index - b.index)) {
    if (left === 0) break;
    shares[index]! += 1;
    left -= 1;
  }
  return shares;
}
