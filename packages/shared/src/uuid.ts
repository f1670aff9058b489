/**
 * A UUID in canonical form, 8-4-4-4-12 hex digits in lower case: the text PostgreSQL's uuid type writes, and any id
 * we hand out. It checks no version or variant nibble (z.uuid() does, for request schemas), so an id from any
 * generator passes where an id is read from outside a schema: a token's subject, a link, a cookie, a search box.
 */
export const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const UUID = new RegExp(`^${UUID_PATTERN}$`, 'i');

/** Whether the text is a UUID, in either case: it is safe to pass to SQL as one. */
export const isUuid = (text: string): boolean => UUID.test(text);

/**
 * The lowest and highest UUID whose canonical text starts with these hex digits (dashes and case ignored): what a
 * short reference ("A42C5FAB", a payment's first 8 digits) or an order number names, as a range an id's index can
 * scan. Null for anything but 1 to 32 hex digits.
 */
export function uuidPrefixRange(prefix: string): [low: string, high: string] | null {
  const hex = prefix.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{1,32}$/.test(hex)) return null;
  const canonical = (digits: string) =>
    `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`;
  return [canonical(hex.padEnd(32, '0')), canonical(hex.padEnd(32, 'f'))];
}
