import { useState } from 'react';
import { readAsBase64 } from '../../../lib/files.ts';
import { useAttachmentUpload } from '../api/use-support.ts';
import { attachmentMime } from './attachment-file.ts';
import type { StagedFile } from './attachment-picker.tsx';

/** Reading the file is the first half of a file's bar, the upload (answered) the second. */
const READ_SHARE = 0.5;

/**
 * Sends staged files to a ticket one after the other, with each file's progress. Stops at the first refusal (the
 * API client shows its reason) and answers the files not sent, so the user can fix or remove them and retry.
 */
export function useSendFiles() {
  const { upload, after } = useAttachmentUpload();
  const [progress, setProgress] = useState<Record<string, number>>({});
  const [sending, setSending] = useState(false);

  async function send(ticketId: string, files: StagedFile[]): Promise<StagedFile[]> {
    setSending(true);
    let index = 0;
    try {
      for (; index < files.length; index += 1) {
        const { key, file } = files[index]!;
        const report = (ratio: number) => setProgress((current) => ({ ...current, [key]: ratio }));
        report(0);
        const content = await readAsBase64(file, (ratio) => report(ratio * READ_SHARE));
        await upload(ticketId, { content, name: file.name, mime: attachmentMime(file) });
        report(1);
      }
      return [];
    } catch {
      return files.slice(index);
    } finally {
      setSending(false);
      setProgress({});
      await after(ticketId);
    }
  }

  return { send, progress, sending };
}
