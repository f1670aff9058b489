/** A typed text as part of a LIKE / ILIKE pattern that matches it literally (its `\`, `%` and `_` escaped). */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);
