/** "LV•• •••• •••• •••• •••• 5001" → "LV•• •••• 5001": the country and the last four fit a phone's line. */
export function shortMask(masked: string): string {
  return masked.replace(/(?:•{4}\s+)+/g, '•••• ');
}
