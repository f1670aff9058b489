import type { Executor } from './client.ts';

/** Named (parsed and planned once per connection) unless the connections go through a transaction pooler. */
let namedStatements = true;

/**
 * Behind PgBouncer in transaction mode (Debian 12's 1.18 has no protocol-level prepared statements; 1.21 added them)
 * the transactions of one client connection run on whichever server connection is free, so a statement named on one
 * is missing on the next ("prepared statement … does not exist") or already there ("… already exists"). An unnamed
 * statement is parsed, bound and executed in one round trip that the pooler keeps on one server connection, so it
 * works there; it costs a parse and a plan per call. Set once by `openDatabase` (DATABASE_POOLER): a process has one
 * database.
 */
export function useUnnamedStatements(): void {
  namedStatements = false;
}

/**
 * A hot path's statement, written once as SQL text with `$n` parameters (arrays for lists, so its shape never
 * changes): PostgreSQL parses and plans it once per connection under `name`, and nothing is built per call.
 * Runs on the executor's own connection, so inside the caller's transaction. (Drizzle's `.prepare()` binds to the
 * connection it was made on, and a transaction has a connection of its own.)
 */
export function preparedStatement<Row>(name: string, text: string) {
  return async (executor: Executor, params: unknown[]): Promise<Row[]> => {
    const query = executor._.session.prepareQuery({ sql: text, params }, undefined, namedStatements ? name : undefined, false);
    return ((await query.execute()) as { rows: Row[] }).rows;
  };
}
