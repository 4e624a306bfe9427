/** The file-level problems a JSON array file can have, worded for the user. */

export const ROW_ARRAY_KEYS: readonly string[] = ['data', 'examples', 'rows', 'samples', 'test_cases', 'goldens'];

export interface DocumentError {
  message: string;
  fix: string;
}

const GIVE_AN_ARRAY = `give the rows as a JSON array [{...}, {...}], as an object holding that array under one of ${ROW_ARRAY_KEYS.join(', ')}, or as JSONL (one object per line)`;
const WRITE_IT_WHOLE = 'check that the file was written or copied completely';

export const EMPTY_FILE: DocumentError = { message: 'the file is empty', fix: GIVE_AN_ARRAY };

export const NO_ROWS_IN_OBJECT: DocumentError = {
  message: `the top-level object holds no array of rows under any of ${ROW_ARRAY_KEYS.join(', ')}`,
  fix: GIVE_AN_ARRAY,
};

export const OBJECT_NOT_CLOSED: DocumentError = {
  message: 'the file ends before the top-level object is closed with } (truncated file?)',
  fix: WRITE_IT_WHOLE,
};

/** Two elements with nothing between them: `{...}\n{...}`. Both are read; the file is still not valid JSON. */
export const MISSING_COMMA: DocumentError = {
  message: 'a comma is missing between this element and the one before it; both are read',
  fix: 'put a comma after each element of the array but the last',
};

export function arrayNotClosed(insideElement: boolean): DocumentError {
  const inside = insideElement ? ' inside the element that starts here' : '';
  return {
    message: `the file ends${inside} before the array is closed with ] (truncated file?)`,
    fix: `${WRITE_IT_WHOLE}; a JSON array must end with ]`,
  };
}

export function notAnArray(firstCharacter: string): DocumentError {
  return { message: `expected a JSON array of rows, found ${describeStart(firstCharacter)}`, fix: GIVE_AN_ARRAY };
}

export function textAfterDocument(firstCharacter: string): DocumentError {
  if (firstCharacter === '{' || firstCharacter === '[') {
    return {
      message: 'a second JSON value starts after the end of the first',
      fix: 'a .json file holds one array; if the file has one object per line, name it .jsonl or pass --format jsonl',
    };
  }
  return { message: 'unexpected text after the end of the JSON value', fix: 'remove the text after the closing bracket' };
}

function describeStart(character: string): string {
  if (character === '"') return 'a string';
  if (/[-0-9]/.test(character)) return 'a number';
  if (character === 't' || character === 'f') return 'a boolean';
  if (character === 'n') return 'null';
  return `text that is not JSON (starting with "${character}")`;
}
