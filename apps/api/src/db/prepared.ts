import type { Executor } from './client.ts';

/**
 * A hot path's statement, written once as SQL text with `$n` parameters (arrays for lists, so its shape never
 * changes): PostgreSQL parses and plans it once per connection under `name`, and nothing is built per call.
 * Runs on the executor's own connection, so inside the caller's transaction. (Drizzle's `.prepare()` binds to the
 * connection it was made on, and a transaction has a connection of its own.)
 */
export function preparedStatement<Row>(name: string, text: string) {
  return async (executor: Executor, params: unknown[]): Promise<Row[]> => {
    const query = executor._.session.prepareQuery({ sql: text, params }, undefined, name, false);
    return ((await query.execute()) as { rows: Row[] }).rows;
  };
}
