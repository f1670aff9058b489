import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { files } from '../../db/schema/files.ts';

export async function insertFile(db: Executor, values: { ownerUserId: string; mime: string; content: Uint8Array }) {
  const [row] = await db
    .insert(files)
    .values({ ...values, sizeBytes: values.content.byteLength })
    .returning({ id: files.id });
  return row!;
}

export async function deleteFile(db: Executor, fileId: string): Promise<void> {
  await db.delete(files).where(eq(files.id, fileId));
}

export async function findFile(db: Executor, fileId: string) {
  const [row] = await db
    .select({ id: files.id, mime: files.mime, content: files.content })
    .from(files)
    .where(eq(files.id, fileId));
  return row;
}
