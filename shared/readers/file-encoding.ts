/**
 * The byte-order marks of encodings assay does not read, longest first: a
 * text file that starts with one is refused as a whole rather than read as
 * UTF-8, where every line would fail on NUL bytes with an error that names
 * none of the cause. Windows PowerShell 5 writes UTF-16LE with `>` and
 * `Out-File`, so a dataset or a run file made there is often one.
 */
const FOREIGN_MARKS: readonly { readonly bytes: readonly number[]; readonly encoding: string }[] = [
  { bytes: [0xff, 0xfe, 0x00, 0x00], encoding: 'UTF-32LE' },
  { bytes: [0x00, 0x00, 0xfe, 0xff], encoding: 'UTF-32BE' },
  { bytes: [0xff, 0xfe], encoding: 'UTF-16LE' },
  { bytes: [0xfe, 0xff], encoding: 'UTF-16BE' },
];

/** A text file in an encoding other than UTF-8, known by its byte-order mark: the user converts it. */
export class FileEncodingError extends Error {
  constructor(
    readonly encoding: string,
    readonly mark: string,
  ) {
    super(`the file is ${encoding} (it starts with the byte-order mark ${mark}); assay reads UTF-8`);
    this.name = 'FileEncodingError';
  }
}

/** How to convert such a file, in the input error that refuses it. */
export const CONVERT_TO_UTF8_FIX =
  'save it as UTF-8, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE-utf8 (Windows PowerShell 5 writes UTF-16 with > and Out-File; give Out-File -Encoding utf8)';

/** Throws FileEncodingError when a file's first bytes (four, or the whole of a shorter file) start with the byte-order mark of UTF-16 or UTF-32. */
export function refuseForeignEncoding(start: Uint8Array): void {
  for (const { bytes, encoding } of FOREIGN_MARKS) {
    if (start.length < bytes.length || !bytes.every((byte, index) => start[index] === byte)) continue;
    throw new FileEncodingError(encoding, bytes.map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join(' '));
  }
}
