import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  content: string | Uint8Array;
  /** Kept uncompressed (method 0), as ASiC and ODF require of their `mimetype`; deflated otherwise. */
  stored?: boolean;
}

/** MS-DOS date and time fields of a ZIP header (local time fields, read as UTC by convention here). */
function dosDateTime(date: Date): { time: number; day: number } {
  const time = (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2);
  const day = ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
  return { time, day };
}

/**
 * A ZIP archive (PKWARE APPNOTE 6.3, deflate or stored, UTF-8 names) of a few small files, built in memory: the data export is
 * kilobytes, and a dependency for it would be more code than this.
 */
export function zip(entries: ZipEntry[], modified: Date): Buffer {
  const { time, day } = dosDateTime(modified);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : Buffer.from(entry.content);
    const packed = entry.stored ? raw : deflateRawSync(raw);
    const method = entry.stored ? 0 : 8;
    const checksum = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(day, 14);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export interface ZipReadEntry {
  name: string;
  /** Stored without compression (method 0), as ASiC and ODF require of their `mimetype`. */
  stored: boolean;
  content: Buffer;
}

export interface ZipLimits {
  maxEntries: number;
  /** The sum of every entry's size once inflated: a few kilobytes may otherwise inflate to gigabytes. */
  maxTotalBytes: number;
}

/**
 * The entries of a ZIP archive, in the order they lie in the file, or null when it is not one read here: ZIP64,
 * split or encrypted archives, methods other than stored and deflate, more entries or more inflated bytes than the
 * limits, a size, name or CRC the local header and the central directory disagree on, duplicate names, or bytes that
 * belong to no entry (before, between or after them: the room a polyglot hides in). Sizes are checked from the
 * central directory before anything is inflated, and inflating stops at the size it promised.
 */
export function readZip(bytes: Buffer, limits: ZipLimits): ZipReadEntry[] | null {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > bytes.length || eocd + 22 + bytes.readUInt16LE(eocd + 20) !== bytes.length) return null;
  const count = bytes.readUInt16LE(eocd + 10);
  const directorySize = bytes.readUInt32LE(eocd + 12);
  const directoryOffset = bytes.readUInt32LE(eocd + 16);
  if (bytes.readUInt16LE(eocd + 4) !== 0 || bytes.readUInt16LE(eocd + 6) !== 0 || bytes.readUInt16LE(eocd + 8) !== count)
    return null;
  if (count === 0 || count > limits.maxEntries || directoryOffset + directorySize !== eocd) return null;

  const headers: { name: string; method: number; flags: number; crc: number; packed: number; size: number; offset: number }[] =
    [];
  let position = directoryOffset;
  let total = 0;
  for (let index = 0; index < count; index += 1) {
    if (position + 46 > eocd || bytes.readUInt32LE(position) !== 0x02014b50) return null;
    const flags = bytes.readUInt16LE(position + 8);
    const method = bytes.readUInt16LE(position + 10);
    const packed = bytes.readUInt32LE(position + 20);
    const size = bytes.readUInt32LE(position + 24);
    const nameLength = bytes.readUInt16LE(position + 28);
    const end = position + 46 + nameLength + bytes.readUInt16LE(position + 30) + bytes.readUInt16LE(position + 32);
    // Bit 0 and 6: encrypted; 0xffffffff: the real value is in a ZIP64 field.
    if (end > eocd || flags & 0x41 || (method !== 0 && method !== 8) || packed === 0xffffffff || size === 0xffffffff) return null;
    const name = bytes.toString(flags & 0x800 ? 'utf8' : 'latin1', position + 46, position + 46 + nameLength);
    headers.push({
      name,
      method,
      flags,
      crc: bytes.readUInt32LE(position + 16),
      packed,
      size,
      offset: bytes.readUInt32LE(position + 42),
    });
    total += size;
    position = end;
  }
  if (position !== eocd || total > limits.maxTotalBytes || new Set(headers.map((header) => header.name)).size !== count)
    return null;

  const entries: ZipReadEntry[] = [];
  let expected = 0;
  for (const header of headers.toSorted((a, b) => a.offset - b.offset)) {
    const at = header.offset;
    if (at !== expected || at + 30 > directoryOffset || bytes.readUInt32LE(at) !== 0x04034b50) return null;
    const nameLength = bytes.readUInt16LE(at + 26);
    const start = at + 30 + nameLength + bytes.readUInt16LE(at + 28);
    const localName = bytes.toString(header.flags & 0x800 ? 'utf8' : 'latin1', at + 30, at + 30 + nameLength);
    if (localName !== header.name || bytes.readUInt16LE(at + 8) !== header.method || start + header.packed > directoryOffset)
      return null;
    const packed = bytes.subarray(start, start + header.packed);
    expected = start + header.packed;
    // Bit 3: the sizes follow the data, in a descriptor (its signature optional).
    if (header.flags & 0x08) expected += bytes.readUInt32LE(expected) === 0x08074b50 ? 16 : 12;
    let content: Buffer;
    if (header.method === 0) content = packed;
    else {
      try {
        content = inflateRawSync(packed, { maxOutputLength: Math.max(header.size, 1) });
      } catch {
        return null;
      }
    }
    if (content.length !== header.size || crc32(content) !== header.crc) return null;
    entries.push({ name: header.name, stored: header.method === 0, content });
  }
  return expected === directoryOffset ? entries : null;
}
