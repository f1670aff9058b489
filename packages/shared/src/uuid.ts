/**
 * A UUID in canonical form, 8-4-4-4-12 hex digits in lower case: the text PostgreSQL's uuid type writes, and any id
 * we hand out. It checks no version or variant nibble (z.uuid() does, for request schemas), so an id from any
 * generator passes where an id is read from outside a schema: a token's subject, a link, a cookie, a search box.
 */
export const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const UUID = new RegExp(`^${UUID_PATTERN}$`, 'i');

/** Whether the text is a UUID, in either case: it is safe to pass to SQL as one. */
export const isUuid = (text: string): boolean => UUID.test(text);
