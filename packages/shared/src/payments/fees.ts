/** Tip limits and presets (DESIGN "Decisions where the spec is silent"), in integer cents. */
export const TIP_MIN_CENTS = 100;
export const TIP_MAX_CENTS = 50_000;
export const TIP_PRESETS_CENTS = [300, 500, 1_000, 2_000] as const;
export const MESSAGE_MAX_LENGTH = 255;

export interface TipBreakdown {
  /** The tip the guest chose. */
  amountCents: number;
  /** The service fee on it, rounded half up to the cent. */
  feeCents: number;
  /** What the guest is charged: the tip, plus the fee when the guest covers it. */
  totalCents: number;
  /** What the staff member receives: the whole tip when the guest covers the fee, otherwise tip − fee. */
  netCents: number;
}

/**
 * Fee maths in integers only: the percentage becomes basis points, and half a cent rounds up, so
 * total = net + fee always holds and no cent is made or lost.
 */
export function tipBreakdown(amountCents: number, feePercent: number, coverFee: boolean): TipBreakdown {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0)
    throw new RangeError(`Tip must be non-negative integer cents, got ${amountCents}`);
  const feeBasisPoints = Math.round(feePercent * 100);
  const feeCents = Math.floor((amountCents * feeBasisPoints + 5_000) / 10_000);
  return coverFee
    ? { amountCents, feeCents, totalCents: amountCents + feeCents, netCents: amountCents }
    : { amountCents, feeCents, totalCents: amountCents, netCents: amountCents - feeCents };
}
