const DAY = 86_400_000;

/** The hour (UTC) of a plan's monthly charge: the morning in Europe, so the donor's bank shows it on that day. */
export const CHARGE_HOUR_UTC = 8;
/** The e-mail before a charge goes this long before it. */
export const REMINDER_BEFORE_MS = 3 * DAY;
/** After a declined charge: when each of the three retries comes, counted from the month's charge date. */
export const RETRY_AFTER_MS = [2 * DAY, 4 * DAY, 7 * DAY] as const;

/**
 * When a plan that started at `startedAt` charges its month `period` (0: the start itself): the start's day of the
 * month, or the month's last day when it has fewer days (31 January → 28 or 29 February → 31 March), at
 * CHARGE_HOUR_UTC. Counted from the start each time, never from the previous charge, so a short month does not move
 * every later charge.
 */
export function chargeDateOf(startedAt: Date, period: number): Date {
  const year = startedAt.getUTCFullYear();
  const month = startedAt.getUTCMonth() + period;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(startedAt.getUTCDate(), lastDay), CHARGE_HOUR_UTC));
}

/** When a plan tries its month `period` again after `failures` declined attempts (1–3), or null: it lapses. */
export function retryDateOf(startedAt: Date, period: number, failures: number): Date | null {
  const wait = RETRY_AFTER_MS[failures - 1];
  return wait === undefined ? null : new Date(chargeDateOf(startedAt, period).getTime() + wait);
}
