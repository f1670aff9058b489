import { readZip } from '../../lib/zip.ts';

/** An .edoc (Latvian e-signature container, ASiC-E): a ZIP whose first entry is `mimetype`, stored, holding this. */
export const EDOC_MIME = 'application/vnd.etsi.asic-e+zip';

/** More than any signed bundle a user sends support; inflated, the upload limit's few times over at most. */
const LIMITS = { maxEntries: 64, maxTotalBytes: 40 * 1024 * 1024 };
/** What ASiC-E (ETSI EN 319 162-1 §A.1) and the eParaksts tools put in META-INF; anything else there is refused. */
const META_INF =
  /^META-INF\/(?:manifest\.xml|container\.xml|metadata\.xml|ASiCManifest[^/]*\.xml|[^/]*signatures?[^/]*\.(?:xml|p7s)|timestamp[^/]*\.tst|evidencerecord[^/]*\.(?:ers|xml))$/i;
const SIGNATURE = /^META-INF\/[^/]*signatures?[^/]*\.(?:xml|p7s)$/i;

/**
 * Whether the bytes start as an ASiC-E container does: the first local header names `mimetype`, stored, holding the
 * container's type. Only a start: `edocDataFiles` reads the whole container.
 */
export function looksLikeEdoc(bytes: Buffer): boolean {
  if (bytes.length < 30 || bytes.readUInt32LE(0) !== 0x04034b50) return false;
  const nameLength = bytes.readUInt16LE(26);
  const start = 30 + nameLength + bytes.readUInt16LE(28);
  return (
    bytes.toString('latin1', 30, 30 + nameLength) === 'mimetype' &&
    bytes.toString('latin1', start, start + EDOC_MIME.length) === EDOC_MIME
  );
}

/**
 * The signed documents inside a real ASiC-E container, for the caller to check as it checks uploads, or null when
 * the bytes are no such container: a ZIP (read whole, bounded, see `readZip`) whose first entry is `mimetype`, stored,
 * holding exactly the type; a signature in META-INF, which holds nothing but the container's own files (XML, or DER
 * for CMS signatures and time stamps); documents under plain relative names (no `..`, no absolute or Windows paths,
 * which an operator's tool would write outside its folder on extraction).
 */
export function edocDataFiles(bytes: Buffer): { name: string; content: Buffer }[] | null {
  const entries = readZip(bytes, LIMITS);
  const first = entries?.[0];
  if (!entries || !first || first.name !== 'mimetype' || !first.stored || first.content.toString('latin1') !== EDOC_MIME)
    return null;
  const rest = entries.slice(1).filter((entry) => !(entry.name.endsWith('/') && entry.content.length === 0));
  const meta = rest.filter((entry) => entry.name.startsWith('META-INF/'));
  if (!meta.some((entry) => SIGNATURE.test(entry.name))) return null;
  for (const entry of meta) {
    if (!META_INF.test(entry.name)) return null;
    const xml = entry.name.toLowerCase().endsWith('.xml');
    if (xml ? !/^(?:\ufeff)?\s*</.test(entry.content.toString('utf8', 0, 64)) : entry.content[0] !== 0x30) return null;
  }
  const documents = rest.filter((entry) => !entry.name.startsWith('META-INF/'));
  if (documents.length === 0) return null;
  if (
    documents.some(
      ({ name }) => name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name) || name.split('/').includes('..'),
    )
  )
    return null;
  return documents.map(({ name, content }) => ({ name, content }));
}
