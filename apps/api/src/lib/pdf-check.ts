import { getDocumentProxy } from 'unpdf';

/** HTML right behind the `%PDF` header: a polyglot a browser sniffing the bytes would render as a page. */
const HTML_NEAR_START = /<\s*(?:!doctype|html|head|body|script|iframe|svg|img)\b/i;
/** Only the start is scanned: compressed streams further on hold arbitrary bytes that may look like anything. */
const SCANNED_BYTES = 1024;

/**
 * Whether bytes that start with `%PDF` are a PDF a reader can open, with nothing active: whoever opens it later (an
 * operator) must not run someone else's code. The parser (pdf.js, scripting off) opening it and its first page is the
 * structural test; then no document-level JavaScript and no embedded files.
 */
export async function isSafePdf(bytes: Buffer): Promise<boolean> {
  if (HTML_NEAR_START.test(bytes.subarray(0, SCANNED_BYTES).toString('latin1'))) return false;
  try {
    const document = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: true, verbosity: 0 });
    try {
      if (document.numPages < 1) return false;
      await document.getPage(1);
      return (await document.getJSActions()) === null && (await document.getAttachments()) === null;
    } finally {
      await document.destroy();
    }
  } catch {
    return false;
  }
}
