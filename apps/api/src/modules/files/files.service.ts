import type { Executor } from '../../db/client.ts';
import * as repo from './files.repository.ts';

export { normalizeDocument, type StoredDocument } from './document.ts';

/** Stores checked bytes (already typed by content and cleaned) as a file of the user; answers its id. */
export async function storeFile(db: Executor, file: { ownerUserId: string; mime: string; content: Uint8Array }): Promise<string> {
  const row = await repo.insertFile(db, file);
  return row.id;
}

/** Deletes a stored file (a replaced or removed photo), inside the caller's transaction. */
export async function deleteFile(db: Executor, fileId: string): Promise<void> {
  await repo.deleteFile(db, fileId);
}

/** A stored file's bytes and type (the back office views verification documents). */
export async function readFile(db: Executor, fileId: string): Promise<{ mime: string; content: Buffer } | undefined> {
  const row = await repo.findFile(db, fileId);
  return row ? { mime: row.mime, content: Buffer.from(row.content) } : undefined;
}
