import { open, type FileHandle } from 'node:fs/promises';

/**
 * How the files assay reads as text begin when they are not UTF-8 text, the
 * longest first: the byte-order marks of UTF-16 and UTF-32, and the magic
 * numbers of compressed files. A file that starts with one is refused as a
 * whole rather than read as UTF-8, where every line would fail on NUL bytes
 * or binary with an error that names none of the cause. Windows PowerShell 5
 * writes UTF-16LE with `>` and `Out-File`, so a dataset or a run file made
 * there is often one; run files and datasets are often kept gzipped.
 */
const FOREIGN_STARTS: readonly { readonly bytes: readonly number[]; readonly what: string; readonly fix: string }[] = [
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'xz-compressed', fix: decompress('xz -dk FILE') },
  { bytes: [0xff, 0xfe, 0x00, 0x00], what: 'UTF-32LE', fix: convert('UTF-32') },
  { bytes: [0x00, 0x00, 0xfe, 0xff], what: 'UTF-32BE', fix: convert('UTF-32') },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd-compressed', fix: decompress('zstd -dk FILE') },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive', fix: decompress('unzip FILE') },
  { bytes: [0x1f, 0x8b], what: 'gzip-compressed', fix: decompress('gunzip -k FILE') },
  { bytes: [0xff, 0xfe], what: 'UTF-16LE', fix: convert('UTF-16') },
  { bytes: [0xfe, 0xff], what: 'UTF-16BE', fix: convert('UTF-16') },
];

function convert(encoding: string): string {
  return (
    `save it as UTF-8, e.g. iconv -f ${encoding} -t UTF-8 FILE > FILE-utf8 ` +
    '(Windows PowerShell 5 writes UTF-16 with > and Out-File; give Out-File -Encoding utf8)'
  );
}

function decompress(command: string): string {
  return `decompress it first, e.g. ${command}, and give the file it writes`;
}

/** A text file that is not UTF-8 text (UTF-16, compressed), known by how it begins: the user converts it. */
export class FileEncodingError extends Error {
  constructor(
    readonly what: string,
    readonly start: string,
    /** How to make a file assay reads of it. */
    readonly fix: string,
  ) {
    super(`the file is ${what} (it starts with the bytes ${start}); assay reads UTF-8 text`);
    this.name = 'FileEncodingError';
  }
}

/**
 * Throws FileEncodingError when a file's first bytes (six, or the whole of a
 * shorter file) are those of UTF-16 or UTF-32 text or of a compressed file.
 */
export function refuseForeignEncoding(start: Uint8Array): void {
  for (const { bytes, what, fix } of FOREIGN_STARTS) {
    if (start.length < bytes.length || !bytes.every((byte, index) => start[index] === byte)) continue;
    throw new FileEncodingError(what, bytes.map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join(' '), fix);
  }
}

/** The most bytes refuseForeignEncoding looks at. */
export const FOREIGN_START_BYTES = Math.max(...FOREIGN_STARTS.map((start) => start.bytes.length));

/**
 * Why a file is not UTF-8 text, read from its first bytes, for a caller that
 * has not read it yet (a file whose format its name does not tell); undefined
 * for a file that does not start as one, or that cannot be read.
 */
export async function foreignStartOf(file: string): Promise<FileEncodingError | undefined> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(FOREIGN_START_BYTES), 0, FOREIGN_START_BYTES, 0);
    refuseForeignEncoding(buffer.subarray(0, bytesRead));
    return undefined;
  } catch (error) {
    if (error instanceof FileEncodingError) return error;
    return undefined;
  } finally {
    await handle?.close();
  }
}
