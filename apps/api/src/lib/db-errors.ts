/**
 * A unique violation (SQLSTATE 23505), optionally on one named constraint, however the driver wraps it
 * (Drizzle puts the pg error in `cause`; PGlite names the constraint in the message).
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, constraint: name, message } = current as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code !== '23505') continue;
    if (!constraint || name === constraint || (typeof message === 'string' && message.includes(constraint))) return true;
  }
  return false;
}
