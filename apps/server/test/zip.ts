import { crc32, createDeflateRaw } from 'node:zlib';

export interface ZipOptions {
  /** Entries marked as Unix symbolic links (their content is the link target). */
  symlinks?: string[];
  /** Entries stored already deflated, with their declared uncompressed size and CRC. */
  deflated?: Record<string, { size: number; crc: number }>;
}

/**
 * Writes a zip from name → bytes (stored, or deflated bytes given as they are), names taken as given
 * (even unsafe ones).
 */
export function makeZip(files: Record<string, Buffer | string>, options: ZipOptions = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = typeof content === 'string' ? Buffer.from(content) : content;
    const nameBytes = Buffer.from(name, 'utf8');
    const deflated = options.deflated?.[name];
    const crc = deflated ? deflated.crc : crc32(data);
    const size = deflated ? deflated.size : data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(deflated ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    // Made by Unix (3), so the external attributes carry a Unix mode.
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(deflated ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    const mode = options.symlinks?.includes(name) ? 0o120777 : 0o100644;
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/**
 * `head` followed by `megabytes` MB of zeros, deflated a megabyte at a time (never held whole): the
 * body of a zip-bomb entry, with the size and CRC `makeZip` declares for it.
 */
export async function deflatedZeros(
  megabytes: number,
  head = Buffer.alloc(0),
): Promise<{ data: Buffer; size: number; crc: number }> {
  const zeros = Buffer.alloc(1024 ** 2);
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  let crc = crc32(head);
  deflate.write(head);
  for (let i = 0; i < megabytes; i++) {
    crc = crc32(zeros, crc);
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  await new Promise((resolve) => deflate.end(resolve));
  return { data: Buffer.concat(chunks), size: head.length + megabytes * 1024 ** 2, crc };
}
