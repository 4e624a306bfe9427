/**
 * The TREC run kernel, in AssemblyScript, compiled to WebAssembly by
 * `npm run build:generated` into shared/trec/trec-run-kernel-wasm.ts.
 *
 * It reads a whole run file held in its memory and hands back, for every
 * qrels topic, the grades of the retrieved documents in trec_eval's rank
 * order: what shared/trec/run.ts and rank-topic.ts compute, for the common
 * shape of run file only. Every line must have six or more fields, a decimal
 * score (digits of any length with at most one point, an optional sign and
 * exponent, read to the double trec_eval's atof gives: readNumber) and ASCII
 * topic ids, and no document may repeat within a topic; any other file
 * (comments, blank lines, -0, a subnormal or infinite score, errors to name)
 * gets the answer "not mine" and goes to the JavaScript reader, which reads
 * every file. So this
 * code never has to produce an error message or handle a rare shape, and its
 * answers are compared with the JavaScript path's in the tests.
 *
 * Why WebAssembly: a compiled module starts running at near full speed at
 * once and is compiled once per process, where JavaScript code is compiled
 * again by every thread and runs slowly until it has warmed up, which costs
 * as much as reading several run files.
 *
 * Memory is one bump-allocated heap. The qrels tables are built first and
 * stay; each run's data is allocated after them and dropped when the next
 * run begins.
 */

import { LARGEST_POWER_OF_TEN, POWERS_OF_FIVE, SMALLEST_POWER_OF_TEN } from './powers-of-five';

// ---------------------------------------------------------------- memory

let top: usize = 0;
let runBase: usize = 0;

function allocate(size: usize): usize {
  if (top === 0) top = (__heap_base + 7) & ~7;
  const pointer = top;
  // Eight spare bytes after every allocation: the scanners read whole words (see fieldEnd).
  const next = (<u64>top + <u64>size + 8 + 7) & ~(<u64>7);
  // Past what a 32-bit memory holds: a trap, which the caller takes as "not mine".
  if (next > 0xffff0000) unreachable();
  top = <usize>next;
  const needed = <i32>((top + 0xffff) >>> 16);
  const have = memory.size();
  if (needed > have && memory.grow(needed - have) < 0) unreachable();
  return pointer;
}

/** Memory for the caller to fill (the qrels' arrays); valid until the next call. */
export function reserve(size: u32): usize {
  return allocate(<usize>size);
}

// ---------------------------------------------------------------- bytes

@inline function isSpaceByte(byte: u32): bool {
  return byte === 32 || byte === 9 || (byte >= 11 && byte <= 13);
}

/** strcmp's sign for two byte strings: unsigned bytes, a prefix before the longer string. */
function compareBytes(a: usize, aLength: i32, b: usize, bLength: i32): i32 {
  const shorter = aLength < bLength ? aLength : bLength;
  for (let index = 0; index < shorter; index++) {
    const difference = <i32>load<u8>(a + index) - <i32>load<u8>(b + index);
    if (difference !== 0) return difference;
  }
  return aLength - bLength;
}

/** Whether the `length` bytes at a and b are the same, compared eight at a time (every string here has eight readable bytes after it). */
function equalBytes(a: usize, b: usize, length: i32): bool {
  let index = 0;
  for (; index + 8 <= length; index += 8) if (load<u64>(a + <usize>index) !== load<u64>(b + <usize>index)) return false;
  if (index === length) return true;
  const mask = (<u64>1 << (<u64>(length - index) << 3)) - 1;
  return ((load<u64>(a + <usize>index) ^ load<u64>(b + <usize>index)) & mask) === 0;
}

function slotsFor(entries: i32): i32 {
  let slots = 16;
  while (slots < entries * 2) slots <<= 1;
  return slots;
}

function emptySlots(count: i32): usize {
  const slots = allocate(<usize>count << 2);
  memory.fill(slots, 0xff, <usize>count << 2);
  return slots;
}

// ---------------------------------------------------------------- qrels (kept across runs)

let qrelsTopics: i32 = 0;
/** Per qrels topic: where its id's bytes start, their length and hash. */
let qrelsTopicStart: usize = 0;
let qrelsTopicLength: usize = 0;
let qrelsTopicHash: usize = 0;
/**
 * Per qrels topic, a small open-addressing table of its judged documents
 * (a topic's lines come together in a run file, so its table stays in the
 * cache while they are read): where its slots start and its mask. A slot is
 * eight bytes, the judgment's index (-1 for none) and its document id's hash,
 * so a probe that misses reads nothing else.
 */
let judgedSlotsAt: usize = 0;
let judgedMaskOf: usize = 0;
/** Per judgment, sixteen bytes: where its document id's bytes start, their length, and its mark. */
let judged: usize = 0;

/**
 * Takes the qrels the caller wrote into reserved memory: `topicCount` topic
 * ids (their bytes at `topicBytes`, id i from topicEnds[i - 1] to
 * topicEnds[i]) and `judgmentCount` judgments grouped by topic in topic order
 * (the topic index, the grade mark and the document id's bytes, judgment j
 * from documentEnds[j - 1] to documentEnds[j] of `documentBytes`). The
 * caller's arrays are copied into tables of their own; every run evaluated
 * after this uses them.
 */
export function setQrels(topicCount: i32, topicEnds: usize, topicBytes: usize, judgmentCount: i32, judgmentTopics: usize, judgmentMarks: usize, documentEnds: usize, documentBytes: usize): void {
  qrelsTopics = topicCount;
  qrelsTopicStart = allocate(<usize>topicCount << 2);
  qrelsTopicLength = allocate(<usize>topicCount << 2);
  qrelsTopicHash = allocate(<usize>topicCount << 2);
  const topicBytesLength = topicCount === 0 ? 0 : load<i32>(topicEnds + ((<usize>topicCount - 1) << 2));
  const topicCopy = allocate(<usize>topicBytesLength);
  memory.copy(topicCopy, topicBytes, <usize>topicBytesLength);
  let from = 0;
  for (let topic = 0; topic < topicCount; topic++) {
    const to = load<i32>(topicEnds + (<usize>topic << 2));
    const hash = hashBytes(topicCopy + from, to - from);
    store<i32>(qrelsTopicStart + (<usize>topic << 2), <i32>(topicCopy + from));
    store<i32>(qrelsTopicLength + (<usize>topic << 2), to - from);
    store<u32>(qrelsTopicHash + (<usize>topic << 2), hash);
    from = to;
  }
  const documentBytesLength = judgmentCount === 0 ? 0 : load<i32>(documentEnds + ((<usize>judgmentCount - 1) << 2));
  const documentCopy = allocate(<usize>documentBytesLength);
  memory.copy(documentCopy, documentBytes, <usize>documentBytesLength);
  judged = allocate(<usize>judgmentCount << 4);
  judgedSlotsAt = allocate(<usize>topicCount << 2);
  judgedMaskOf = allocate(<usize>topicCount << 2);
  from = 0;
  let judgment = 0;
  for (let topic = 0; topic < topicCount; topic++) {
    const first = judgment;
    while (judgment < judgmentCount && load<i32>(judgmentTopics + (<usize>judgment << 2)) === topic) judgment++;
    const slotCount = slotsFor(judgment - first);
    const slots = emptySlots(slotCount << 1);
    const mask = <u32>slotCount - 1;
    store<i32>(judgedSlotsAt + (<usize>topic << 2), <i32>slots);
    store<u32>(judgedMaskOf + (<usize>topic << 2), mask);
    for (let each = first; each < judgment; each++) {
      const offset = <usize>each << 2;
      const to = load<i32>(documentEnds + offset);
      const hash = hashBytes(documentCopy + from, to - from);
      const record = judged + (<usize>each << 4);
      store<i32>(record, <i32>(documentCopy + from));
      store<i32>(record, to - from, 4);
      store<i32>(record, load<i32>(judgmentMarks + offset), 8);
      let slot = hash & mask;
      while (load<i32>(slots + (<usize>slot << 3)) !== -1) slot = (slot + 1) & mask;
      store<i32>(slots + (<usize>slot << 3), each);
      store<u32>(slots + (<usize>slot << 3), hash, 4);
      from = to;
    }
  }
  runBase = top;
}

/** The mark of a document of qrels topic `topic` (its grade, or -2 for a negative one), -1 when the qrels do not judge it. */
function markOf(topic: i32, start: usize, length: i32, hash: u32): i32 {
  const slots = <usize>load<i32>(judgedSlotsAt + (<usize>topic << 2));
  const mask = load<u32>(judgedMaskOf + (<usize>topic << 2));
  let slot = hash & mask;
  while (true) {
    const entry = slots + (<usize>slot << 3);
    const judgment = load<i32>(entry);
    if (judgment === -1) return -1;
    if (load<u32>(entry, 4) === hash) {
      const record = judged + (<usize>judgment << 4);
      if (load<i32>(record, 4) === length && equalBytes(<usize>load<i32>(record), start, length)) return load<i32>(record, 8);
    }
    slot = (slot + 1) & mask;
  }
}

// ---------------------------------------------------------------- one run

let input: usize = 0;
/** Per line (record) of the run: its topic, score, document id (bytes, hash) and mark. */
let recordCount: i32 = 0;
let recordTopic: usize = 0;
let recordScore: usize = 0;
let recordStart: usize = 0;
let recordLength: usize = 0;
let recordHash: usize = 0;
let recordMark: usize = 0;
/** The run's topics: the qrels ones first (same indices), then those only in the run. */
let topicCount: i32 = 0;
let topicCapacity: i32 = 0;
let topicSlots: usize = 0;
let topicMask: u32 = 0;
let topicStart: usize = 0;
let topicLength: usize = 0;
let topicHash: usize = 0;
let lastTagStart: i32 = 0;
let lastTagEnd: i32 = 0;

/** The shortest line of six fields: six bytes, five separators and the newline. */
const SHORTEST_LINE = 12;

/** Drops the last run's data and returns where the caller writes the next run file, `size` bytes. */
export function beginRun(size: u32): usize {
  top = runBase;
  input = allocate(<usize>size);
  return input;
}

/** Where the tag of the run's last line starts and ends, in the run file's bytes. */
export function tagStart(): i32 {
  return lastTagStart;
}

export function tagEnd(): i32 {
  return lastTagEnd;
}

/**
 * Makes room for `capacity` topics: the arrays are copied to new ones and the
 * table rebuilt (a run names few topics; a table sized for one a line would
 * touch megabytes of fresh memory for every run file).
 */
function growTopics(capacity: i32): void {
  const starts = allocate(<usize>capacity << 2);
  const lengths = allocate(<usize>capacity << 2);
  const hashes = allocate(<usize>capacity << 2);
  memory.copy(starts, topicStart, <usize>topicCount << 2);
  memory.copy(lengths, topicLength, <usize>topicCount << 2);
  memory.copy(hashes, topicHash, <usize>topicCount << 2);
  topicStart = starts;
  topicLength = lengths;
  topicHash = hashes;
  topicCapacity = capacity;
  const slotCount = slotsFor(capacity);
  topicSlots = emptySlots(slotCount);
  topicMask = <u32>slotCount - 1;
  for (let topic = 0; topic < topicCount; topic++) {
    let slot = load<u32>(hashes + (<usize>topic << 2)) & topicMask;
    while (load<i32>(topicSlots + (<usize>slot << 2)) !== -1) slot = (slot + 1) & topicMask;
    store<i32>(topicSlots + (<usize>slot << 2), topic);
  }
}

function topicOf(start: usize, length: i32, hash: u32): i32 {
  let slot = hash & topicMask;
  while (true) {
    const topic = load<i32>(topicSlots + (<usize>slot << 2));
    if (topic === -1) break;
    const offset = <usize>topic << 2;
    if (load<u32>(topicHash + offset) === hash && load<i32>(topicLength + offset) === length && equalBytes(<usize>load<i32>(topicStart + offset), start, length)) return topic;
    slot = (slot + 1) & topicMask;
  }
  if (topicCount === topicCapacity) {
    growTopics(topicCapacity * 2);
    return topicOf(start, length, hash);
  }
  const topic = topicCount++;
  const offset = <usize>topic << 2;
  store<i32>(topicStart + offset, <i32>start);
  store<i32>(topicLength + offset, length);
  store<u32>(topicHash + offset, hash);
  store<i32>(topicSlots + (<usize>slot << 2), topic);
  return topic;
}

/**
 * Makes ready to read a run file of `length` bytes at input[start, ...),
 * which readLines then reads (whole, or in pieces of whole lines).
 */
export function startLines(length: i32): void {
  begin(length, false);
}

/**
 * startLines for collect(): readLines then also keeps where each score is
 * written, and answers "not mine" for a file of more than one tag.
 */
export function startCollection(length: i32): void {
  begin(length, true);
}

function begin(length: i32, collect: bool): void {
  collecting = collect;
  const capacity = length / SHORTEST_LINE + 1;
  recordCapacity = capacity;
  recordCount = 0;
  recordTopic = allocate(<usize>capacity << 2);
  recordScore = allocate(<usize>capacity << 3);
  recordStart = allocate(<usize>capacity << 2);
  recordLength = allocate(<usize>capacity << 2);
  recordHash = allocate(<usize>capacity << 2);
  recordMark = allocate(<usize>capacity << 2);
  if (collect) {
    recordScoreStart = allocate(<usize>capacity << 2);
    recordScoreLength = allocate(<usize>capacity << 2);
  }
  topicCount = 0;
  topicCapacity = 0;
  growTopics(qrelsTopics + 64);
  for (let topic = 0; topic < qrelsTopics; topic++) {
    const offset = <usize>topic << 2;
    topicOf(<usize>load<i32>(qrelsTopicStart + offset), load<i32>(qrelsTopicLength + offset), load<u32>(qrelsTopicHash + offset));
  }
  previousTopic = -1;
  previousStart = 0;
  previousLength = -1;
}

let recordCapacity: i32 = 0;
/** Whether readLines keeps each score's text (recordScoreStart, recordScoreLength) and checks that every line has one tag: for collect(). */
let collecting = false;
let recordScoreStart: usize = 0;
let recordScoreLength: usize = 0;
/** The topic of the line read last, and where its id is: most lines have the topic of the line before. */
let previousTopic: i32 = -1;
let previousStart: usize = 0;
let previousLength: i32 = -1;

/**
 * Reads the lines of input[start, end), whole lines ending with a newline,
 * after those of the calls before since startLines. Returns 0 when every line
 * is of the common shape and read, 1 when the file is not this kernel's to
 * read (the JavaScript reader reads it then). A document retrieved twice is
 * found by rank(), topic by topic.
 */
export function readLines(start: i32, end: i32): i32 {
  const capacity = recordCapacity;
  let position = input + <usize>start;
  const limit = input + <usize>end;
  while (position < limit) {
    // A first byte that is no field byte (a blank line, leading spaces, a control byte) or a # comment: the JavaScript reader's.
    const first = load<u8>(position);
    if (first === 35 || first < 0x21) return 1;
    const topicFieldStart = position;
    const topicFieldEnd = fieldEnd(position);
    if (!separates(topicFieldEnd)) return 1;
    const iterationStart = skipSpaces(topicFieldEnd);
    const iterationEnd = fieldEnd(iterationStart);
    if (iterationEnd === iterationStart || !separates(iterationEnd)) return 1;
    const documentStart = skipSpaces(iterationEnd);
    const documentEnd = fieldEnd(documentStart);
    if (documentEnd === documentStart || !separates(documentEnd)) return 1;
    const rankStart = skipSpaces(documentEnd);
    const rankEnd = fieldEnd(rankStart);
    if (rankEnd === rankStart || !separates(rankEnd)) return 1;
    position = skipSpaces(rankEnd);
    const scoreFieldStart = position;
    // The score, parsed as it is scanned: a decimal number, to the double strtod gives (readNumber).
    position = readNumber(position);
    if (position === 0 || !separates(position)) return 1;
    const scoreFieldEnd = position;
    // -0 ties with 0 in trec_eval's order; the JavaScript path decides those.
    if (numberValue === 0 && numberNegative) return 1;
    const tagFieldStart = skipSpaces(position);
    const tagFieldEnd = fieldEnd(tagFieldStart);
    if (tagFieldEnd === tagFieldStart || !separates(tagFieldEnd)) return 1;
    // Anything after the tag is ignored, as trec_eval does.
    position = lineEnd(tagFieldEnd) + 1;

    const topicFieldLength = <i32>(topicFieldEnd - topicFieldStart);
    let topic = previousTopic;
    if (topicFieldLength !== previousLength || !equalBytes(topicFieldStart, previousStart, topicFieldLength)) {
      // Topic ids are looked up by their decoded text in JavaScript: only ASCII ones are compared as bytes here.
      for (let at = topicFieldStart; at < topicFieldEnd; at++) if (load<u8>(at) >= 0x80) return 1;
      topic = topicOf(topicFieldStart, topicFieldLength, hashBytes(topicFieldStart, topicFieldLength));
      previousTopic = topic;
      previousStart = topicFieldStart;
      previousLength = topicFieldLength;
    }
    const record = recordCount;
    if (record === capacity) return 1;
    const offset = <usize>record << 2;
    const documentLength = <i32>(documentEnd - documentStart);
    const documentHash = hashBytes(documentStart, documentLength);
    store<i32>(recordTopic + offset, topic);
    store<i32>(recordStart + offset, <i32>documentStart);
    store<i32>(recordLength + offset, documentLength);
    store<u32>(recordHash + offset, documentHash);
    store<f64>(recordScore + (<usize>record << 3), numberValue);
    store<i32>(recordMark + offset, topic < qrelsTopics ? markOf(topic, documentStart, documentLength, documentHash) : -1);
    if (collecting) {
      store<i32>(recordScoreStart + offset, <i32>scoreFieldStart);
      store<i32>(recordScoreLength + offset, <i32>(scoreFieldEnd - scoreFieldStart));
      const tagLength = <i32>(tagFieldEnd - tagFieldStart);
      if (record > 0 && (tagLength !== lastTagEnd - lastTagStart || !equalBytes(tagFieldStart, input + <usize>lastTagStart, tagLength))) return 1;
    }
    recordCount = record + 1;
    lastTagStart = <i32>(tagFieldStart - input);
    lastTagEnd = <i32>(tagFieldEnd - input);
  }
  return 0;
}

/*
 * Scanning a line eight bytes at a time. Fields end at the first byte below
 * 0x21: (word - 0x21 in every byte) & ~word & 0x80 in every byte flags it
 * exactly (bytes above the first flagged one may be flagged by the borrow,
 * which the lowest-set-bit count never looks at). Every line ends with a
 * newline, which stops every scan, and every allocation has eight spare bytes
 * after it, so reading a word past the newline stays in memory.
 */

const ONES: u64 = 0x0101010101010101;
const HIGH_BITS: u64 = 0x8080808080808080;

/** Where the field that starts at `position` ends: its first byte below 0x21. */
@inline function fieldEnd(position: usize): usize {
  let at = position;
  while (true) {
    const word = load<u64>(at);
    const flagged = (word - ONES * 0x21) & ~word & HIGH_BITS;
    if (flagged !== 0) return at + <usize>(ctz(flagged) >> 3);
    at += 8;
  }
}

/**
 * Whether the byte at `position`, the first below 0x21 after a field, is
 * whitespace (C isspace: space, tab, newline, vertical tab, form feed,
 * carriage return). trec_eval counts the other control bytes as part of a
 * field: such a line is the JavaScript reader's.
 */
@inline function separates(position: usize): bool {
  const byte = <u32>load<u8>(position);
  return byte === 32 || (byte >= 9 && byte <= 13);
}

/** The first position from `position` that is not a space within the line (the newline stops it). */
@inline function skipSpaces(position: usize): usize {
  let at = position;
  while (isSpaceByte(load<u8>(at))) at++;
  return at;
}

/** The position of the newline that ends the line holding `position`. */
function lineEnd(position: usize): usize {
  let at = position;
  while (true) {
    const word = load<u64>(at) ^ (ONES * 10);
    const flagged = (word - ONES) & ~word & HIGH_BITS;
    if (flagged !== 0) return at + <usize>(ctz(flagged) >> 3);
    at += 8;
  }
}

/**
 * A hash of `length` bytes at `pointer`, eight at a time: the last word is
 * masked to the bytes that belong to the string (the rest may be anything).
 */
function hashBytes(pointer: usize, length: i32): u32 {
  let hash: u64 = 0x9e3779b97f4a7c15 ^ <u64>length;
  let at = pointer;
  let left = length;
  while (left >= 8) {
    hash = (hash ^ load<u64>(at)) * 0xff51afd7ed558ccd;
    hash ^= hash >> 29;
    at += 8;
    left -= 8;
  }
  if (left > 0) {
    hash = (hash ^ (load<u64>(at) & ((<u64>1 << (<u64>left << 3)) - 1))) * 0xff51afd7ed558ccd;
  }
  hash ^= hash >> 32;
  hash *= 0xc4ceb9fe1a85ec53;
  return <u32>(hash >> 32);
}

// ---------------------------------------------------------------- decimal numbers

/*
 * trec_eval reads a score with atof, which gives the double nearest to the
 * decimal (ties to the even one), as JavaScript's Number does. readNumber
 * does the same without a slower path: Clinger's fast path when the digits
 * and the power of ten are both exact doubles (a single correctly rounded
 * division or product), else the Eisel-Lemire algorithm (a 128-bit product
 * with a table of powers of five, exact for every decimal of up to 19
 * significant digits: Mushtak and Lemire, "Fast number parsing without
 * fallback", 2023, as in the fast_float library). A decimal of more digits
 * is read as its first 19 and their successor: when both give one double,
 * so does the decimal between them. What is left (those two differ, a value
 * out of a normal double's range, -0) is the JavaScript reader's.
 */

/** What readNumber read last: its value, its sign, and the decimal it names, digits × 10^exponent (19 significant digits at most; `dropped` when a nonzero digit after those was left out). */
let numberValue: f64 = 0;
let numberNegative = false;
let numberDigits: u64 = 0;
let numberExponent: i32 = 0;
let numberDropped = false;

/**
 * Reads a decimal number at `position`: an optional sign, digits with at most
 * one point among them, and an optional exponent (e or E, an optional sign,
 * digits). Sets numberValue and the rest, and returns where the number ends,
 * or 0 when the text is not such a number or its value is left to the
 * JavaScript reader (see above). The caller looks at the byte it ends on.
 */
@inline function readNumber(position: usize): usize {
  let at = position;
  let byte = <u32>load<u8>(at);
  const negative = byte === 45;
  if (negative || byte === 43) byte = load<u8>(++at);
  const digitsStart = at;
  let digits: u64 = 0;
  let significant = 0;
  let exponent: i32 = 0;
  let dropped = false;
  let point = false;
  // Leading zeros are no significant digits.
  while (byte === 48) byte = load<u8>(++at);
  while (byte - 48 < 10) {
    if (significant < 19) {
      digits = digits * 10 + <u64>(byte - 48);
      significant++;
    } else {
      exponent++;
      if (byte !== 48) dropped = true;
    }
    byte = load<u8>(++at);
  }
  if (byte === 46) {
    point = true;
    byte = load<u8>(++at);
    if (significant === 0) {
      while (byte === 48) {
        exponent--;
        byte = load<u8>(++at);
      }
    }
    while (byte - 48 < 10) {
      if (significant < 19) {
        digits = digits * 10 + <u64>(byte - 48);
        significant++;
        exponent--;
      } else if (byte !== 48) {
        dropped = true;
      }
      byte = load<u8>(++at);
    }
  }
  // No digit at all (a sign or a point alone).
  if (at - digitsStart === (point ? 1 : 0)) return 0;
  if ((byte | 0x20) === 101) {
    byte = load<u8>(++at);
    const negativeExponent = byte === 45;
    if (negativeExponent || byte === 43) byte = load<u8>(++at);
    if (byte - 48 >= 10) return 0;
    let written: i32 = 0;
    while (byte - 48 < 10) {
      if (written < 100000) written = written * 10 + <i32>(byte - 48);
      byte = load<u8>(++at);
    }
    exponent += negativeExponent ? -written : written;
  }
  let value = toDouble(digits, exponent);
  if (dropped && value === value && toDouble(digits + 1, exponent) !== value) value = NaN;
  if (value !== value) return 0;
  numberValue = negative ? -value : value;
  numberNegative = negative;
  numberDigits = digits;
  numberExponent = exponent;
  numberDropped = dropped;
  return at;
}

/** The double nearest to digits × 10^exponent (ties to even), or NaN when the value is not a normal double or zero. */
function toDouble(digits: u64, exponent: i32): f64 {
  if (digits === 0) return 0;
  if (digits <= (<u64>1 << 53) && exponent >= -22 && exponent <= 22) {
    // Clinger's fast path: both operands exact, one rounding.
    return exponent < 0 ? <f64>digits / load<f64>(POWERS_OF_TEN + (<usize>-exponent << 3)) : <f64>digits * load<f64>(POWERS_OF_TEN + (<usize>exponent << 3));
  }
  return eiselLemire(digits, exponent);
}

/** 10^0 to 10^22, each exact in a double. */
const POWERS_OF_TEN: usize = memory.data<f64>([1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]);

/** The high and low words of the last product multiply() formed. */
let productHigh: u64 = 0;
let productLow: u64 = 0;

/** The 128-bit product of a and b, into productHigh and productLow. */
@inline function multiply(a: u64, b: u64): void {
  const aLow = a & 0xffffffff;
  const aHigh = a >> 32;
  const bLow = b & 0xffffffff;
  const bHigh = b >> 32;
  const lowLow = aLow * bLow;
  const lowHigh = aLow * bHigh;
  const highLow = aHigh * bLow;
  const cross = (lowLow >> 32) + (lowHigh & 0xffffffff) + highLow;
  productHigh = aHigh * bHigh + (lowHigh >> 32) + (cross >> 32);
  productLow = a * b;
}

/**
 * The Eisel-Lemire algorithm for doubles (fast_float's compute_float):
 * digits × 10^exponent correctly rounded, for nonzero digits; NaN for a value
 * that is subnormal or out of range (left to the JavaScript reader).
 */
function eiselLemire(digits: u64, exponent: i32): f64 {
  if (exponent < SMALLEST_POWER_OF_TEN || exponent > LARGEST_POWER_OF_TEN) return NaN;
  const zeros = <i32>clz(digits);
  const normalized = digits << <u64>zeros;
  const entry = POWERS_OF_FIVE + (<usize>(exponent - SMALLEST_POWER_OF_TEN) << 4);
  multiply(normalized, load<u64>(entry));
  let high = productHigh;
  let low = productLow;
  // Fewer than 55 + 1 bits known: the next 64 bits of the power settle them.
  if ((high & 0x1ff) === 0x1ff) {
    multiply(normalized, load<u64>(entry + 8));
    low += productHigh;
    if (productHigh > low) high++;
  }
  const upper = <i32>(high >> 63);
  const shift = <u64>(upper + 9);
  let mantissa = high >> shift;
  // floor(log2(10^exponent)) + 63 + the product's top bit - the shift of the digits + the bias.
  let power = (((152170 + 65536) * exponent) >> 16) + 63 + upper - zeros + 1023;
  if (power <= 0) return NaN;
  // Exactly halfway between two doubles (possible only for these exponents): round to even.
  if (low <= 1 && exponent >= -4 && exponent <= 23 && (mantissa & 3) === 1 && mantissa << shift === high) mantissa &= ~(<u64>1);
  mantissa += mantissa & 1;
  mantissa >>= 1;
  if (mantissa >= <u64>2 << 52) {
    mantissa = <u64>1 << 52;
    power++;
  }
  if (power >= 0x7ff) return NaN;
  return reinterpret<f64>((mantissa & ~(<u64>1 << 52)) | (<u64>power << 52));
}

/**
 * For the tests: the double the kernel reads from the `length` bytes at
 * `at` (followed by a newline), or NaN when it leaves them to the JavaScript
 * reader (not a number it reads, or one whose value it does not find).
 */
export function parseNumber(at: usize, length: i32): f64 {
  const end = readNumber(at);
  return end === at + <usize>length ? numberValue : NaN;
}

/**
 * For the tests: writes at `out` the score that the `length` bytes at `at`
 * name as collect() writes it (as JavaScript prints that number) and returns
 * its length, or 0 when collect() would leave the file to the JavaScript
 * reader for it.
 */
export function formatNumber(at: usize, length: i32, out: usize): i32 {
  if (parseNumber(at, length) !== numberValue || (numberValue === 0 && numberNegative)) return 0;
  const end = writeScore(out, at, length);
  return end === 0 ? 0 : <i32>(end - out);
}

// ---------------------------------------------------------------- ranking

let rankedGrades: usize = 0;

/** Where the grades of qrels topic t start: topic t's are rankedGrades[ends[t - 1], ends[t]). */
export function grades(): usize {
  return rankedGrades;
}

/** What groupByTopic leaves: each topic's records in file order, order[ends[t - 1], ends[t]), and the largest topic's count. */
let groupedEnds: usize = 0;
let groupedOrder: usize = 0;
let groupedLargest: i32 = 0;

/** Groups the run's records by topic, in file order within each (a counting sort): into groupedEnds, groupedOrder and groupedLargest. */
function groupByTopic(): void {
  // cursor[t]: topic t's count of records, then where its next record goes in `order`.
  const cursor = allocate(<usize>topicCount << 2);
  memory.fill(cursor, 0, <usize>topicCount << 2);
  for (let record = 0; record < recordCount; record++) {
    const at = cursor + (<usize>load<i32>(recordTopic + (<usize>record << 2)) << 2);
    store<i32>(at, load<i32>(at) + 1);
  }
  const ends = allocate(<usize>topicCount << 2);
  let total = 0;
  let largest = 0;
  for (let topic = 0; topic < topicCount; topic++) {
    const count = load<i32>(cursor + (<usize>topic << 2));
    if (count > largest) largest = count;
    store<i32>(cursor + (<usize>topic << 2), total);
    total += count;
    store<i32>(ends + (<usize>topic << 2), total);
  }
  const order = allocate(<usize>total << 2);
  for (let record = 0; record < recordCount; record++) {
    const at = cursor + (<usize>load<i32>(recordTopic + (<usize>record << 2)) << 2);
    const next = load<i32>(at);
    store<i32>(order + (<usize>next << 2), record);
    store<i32>(at, next + 1);
  }
  groupedEnds = ends;
  groupedOrder = order;
  groupedLargest = largest;
}

/**
 * Orders every qrels topic's documents as trec_eval does (score highest
 * first, equal scores by document id in descending byte order) and writes
 * their marks in that order, topic after topic. Returns the qrels topics'
 * ends (a topic the run does not retrieve has no marks), or 0 when a topic
 * of the run retrieves a document twice (the JavaScript reader names it).
 */
export function rank(): usize {
  groupByTopic();
  const ends = groupedEnds;
  const order = groupedOrder;
  const largest = groupedLargest;
  const seen = allocate(<usize>slotsFor(largest) << 2);
  const qrelsEnd = qrelsTopics === 0 ? 0 : load<i32>(ends + ((<usize>qrelsTopics - 1) << 2));
  rankedGrades = allocate(<usize>qrelsEnd << 2);
  const judged = allocate(<usize>largest << 2);
  const scratch = allocate(<usize>largest << 2);
  const below = allocate(<usize>(largest + 1) << 2);
  const buckets = allocate(<usize>largest << 3);
  let from = 0;
  for (let topic = 0; topic < topicCount; topic++) {
    const to = load<i32>(ends + (<usize>topic << 2));
    const slice = order + (<usize>from << 2);
    const size = to - from;
    if (!allDifferent(slice, size, seen)) return 0;
    if (topic < qrelsTopics) placeMarks(slice, size, rankedGrades + (<usize>from << 2), judged, scratch, below, buckets);
    from = to;
  }
  return ends;
}

/**
 * Writes the marks of one topic's records, slice[0, size) in file order, to
 * out[0, size) in trec_eval's order. A topic listed by rank is sorted
 * (sortedCheaply). Otherwise only the judged records need a place (every
 * other rank holds -1): they are sorted, and each record's place among them
 * found (a guess from its score, then a search from the guess), which counts
 * the records before each judged one without sorting them all.
 */
function placeMarks(slice: usize, size: i32, out: usize, judged: usize, scratch: usize, below: usize, buckets: usize): void {
  if (inTrecOrder(slice, size) || sortedCheaply(slice, size)) {
    for (let rank = 0; rank < size; rank++) store<i32>(out + (<usize>rank << 2), load<i32>(recordMark + (<usize>load<i32>(slice + (<usize>rank << 2)) << 2)));
    return;
  }
  memory.fill(out, 0xff, <usize>size << 2);
  let count = 0;
  for (let index = 0; index < size; index++) {
    const record = load<i32>(slice + (<usize>index << 2));
    if (load<i32>(recordMark + (<usize>record << 2)) === -1) continue;
    store<i32>(judged + (<usize>count << 2), record);
    count++;
  }
  if (count === 0) return;
  if (!insertionSorted(judged, count)) mergeSort(judged, scratch, count);
  // buckets[b]: how many judged scores are above high - b / scale, a guess at a record's place from its score alone.
  const high = load<f64>(recordScore + (<usize>load<i32>(judged) << 3));
  const low = load<f64>(recordScore + (<usize>load<i32>(judged + (<usize>(count - 1) << 2)) << 3));
  const bucketCount = 2 * count;
  const scale = high > low ? <f64>bucketCount / (high - low) : 0;
  if (scale > 0) {
    let above = 0;
    for (let bucket = 0; bucket < bucketCount; bucket++) {
      const threshold = high - <f64>bucket / scale;
      while (above < count && load<f64>(recordScore + (<usize>load<i32>(judged + (<usize>above << 2)) << 3)) > threshold) above++;
      store<i32>(buckets + (<usize>bucket << 2), above);
    }
  }
  memory.fill(below, 0, <usize>(count + 1) << 2);
  for (let index = 0; index < size; index++) {
    const record = load<i32>(slice + (<usize>index << 2));
    let guess = 0;
    if (scale > 0) {
      const bucket = (high - load<f64>(recordScore + (<usize>record << 3))) * scale;
      guess = load<i32>(buckets + (<usize>(bucket <= 0 ? 0 : bucket >= <f64>(bucketCount - 1) ? bucketCount - 1 : <i32>bucket) << 2));
    }
    const place = placeAmong(record, judged, count, guess);
    store<i32>(below + (<usize>place << 2), load<i32>(below + (<usize>place << 2)) + 1);
  }
  // The records placed at or before judged[k] are those ranked before it, and itself.
  let running = 0;
  for (let k = 0; k < count; k++) {
    running += load<i32>(below + (<usize>k << 2));
    const record = load<i32>(judged + (<usize>k << 2));
    store<i32>(out + (<usize>(running - 1) << 2), load<i32>(recordMark + (<usize>record << 2)));
  }
}

/**
 * How many of judged[0, count) (in trec_eval's order) come before `record`:
 * searched outwards from `guess` in growing steps, then by halves, so a good
 * guess costs a comparison or two and a bad one a binary search.
 */
function placeAmong(record: i32, judged: usize, count: i32, guess: i32): i32 {
  let low = 0;
  let high = count;
  if (guess < count && before(load<i32>(judged + (<usize>guess << 2)), record)) {
    low = guess + 1;
    let step = 1;
    while (true) {
      const probe = low + step - 1;
      if (probe >= high) break;
      if (before(load<i32>(judged + (<usize>probe << 2)), record)) {
        low = probe + 1;
        step <<= 1;
      } else {
        high = probe;
        break;
      }
    }
  } else {
    high = guess;
    let step = 1;
    while (true) {
      const probe = high - step;
      if (probe < low) break;
      if (before(load<i32>(judged + (<usize>probe << 2)), record)) {
        low = probe + 1;
        break;
      }
      high = probe;
      step <<= 1;
    }
  }
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(load<i32>(judged + (<usize>middle << 2)), record)) low = middle + 1;
    else high = middle;
  }
  return low;
}

function inTrecOrder(slice: usize, size: i32): bool {
  for (let index = 1; index < size; index++) {
    if (!before(load<i32>(slice + (<usize>(index - 1) << 2)), load<i32>(slice + (<usize>index << 2)))) return false;
  }
  return true;
}

/** Whether the records of one topic, slice[0, size), name different documents; `seen` has room for their table. */
function allDifferent(slice: usize, size: i32, seen: usize): bool {
  const slotCount = slotsFor(size);
  const mask = <u32>slotCount - 1;
  memory.fill(seen, 0xff, <usize>slotCount << 2);
  for (let index = 0; index < size; index++) {
    const record = load<i32>(slice + (<usize>index << 2));
    const offset = <usize>record << 2;
    const hash = load<u32>(recordHash + offset);
    const length = load<i32>(recordLength + offset);
    const start = <usize>load<i32>(recordStart + offset);
    let slot = hash & mask;
    while (true) {
      const other = load<i32>(seen + (<usize>slot << 2));
      if (other === -1) break;
      const otherOffset = <usize>other << 2;
      if (load<u32>(recordHash + otherOffset) === hash && load<i32>(recordLength + otherOffset) === length && equalBytes(<usize>load<i32>(recordStart + otherOffset), start, length)) return false;
      slot = (slot + 1) & mask;
    }
    store<i32>(seen + (<usize>slot << 2), record);
  }
  return true;
}

/** Whether record a comes before record b in trec_eval's order. */
@inline function before(a: i32, b: i32): bool {
  const scoreA = load<f64>(recordScore + (<usize>a << 3));
  const scoreB = load<f64>(recordScore + (<usize>b << 3));
  if (scoreA !== scoreB) return scoreA > scoreB;
  const offsetA = <usize>a << 2;
  const offsetB = <usize>b << 2;
  return compareBytes(<usize>load<i32>(recordStart + offsetA), load<i32>(recordLength + offsetA), <usize>load<i32>(recordStart + offsetB), load<i32>(recordLength + offsetB)) > 0;
}

/**
 * Sorts slice[0, size) into trec_eval's order when that is cheap, and says
 * whether it did: a run file lists each topic by rank, so its records are in
 * trec_eval's order but for equal scores, whose documents it often lists in
 * ascending order (trec_eval's is descending). Such stretches, records each
 * before the one ahead in trec_eval's order, are reversed first, then
 * insertion sorts what is left out of place (or gives up, leaving the slice
 * in some order of the same records). A list with more than a few scores
 * above the one before them is given up at once, untouched.
 */
function sortedCheaply(slice: usize, size: i32): bool {
  // A list not by score (more than a few scores above the one before them) is no run in rank order: give up before moving anything.
  let rises = (size >> 5) + 2;
  for (let at = 1; at < size; at++) {
    const score = load<f64>(recordScore + (<usize>load<i32>(slice + (<usize>at << 2)) << 3));
    if (score > load<f64>(recordScore + (<usize>load<i32>(slice + (<usize>(at - 1) << 2)) << 3)) && --rises < 0) return false;
  }
  let index = 0;
  while (index < size - 1) {
    let last = index;
    while (last < size - 1 && before(load<i32>(slice + (<usize>(last + 1) << 2)), load<i32>(slice + (<usize>last << 2)))) last++;
    for (let low = index, high = last; low < high; low++, high--) {
      const lowAt = slice + (<usize>low << 2);
      const highAt = slice + (<usize>high << 2);
      const record = load<i32>(lowAt);
      store<i32>(lowAt, load<i32>(highAt));
      store<i32>(highAt, record);
    }
    index = last + 1;
  }
  return insertionSorted(slice, size);
}

/**
 * Sorts slice[0, size) into trec_eval's order by insertion, which costs one
 * comparison a record on a file in rank order and little more on one whose
 * equal scores are in another order (the common case), and gives up when it
 * has moved records more than a few times their number: merge sort then
 * finishes from where it stopped.
 */
function insertionSorted(slice: usize, size: i32): bool {
  let budget = 4 * size + 64;
  for (let index = 1; index < size; index++) {
    const record = load<i32>(slice + (<usize>index << 2));
    let place = index;
    while (place > 0 && before(record, load<i32>(slice + (<usize>(place - 1) << 2)))) {
      if (--budget < 0) {
        store<i32>(slice + (<usize>place << 2), record);
        return false;
      }
      store<i32>(slice + (<usize>place << 2), load<i32>(slice + (<usize>(place - 1) << 2)));
      place--;
    }
    store<i32>(slice + (<usize>place << 2), record);
  }
  return true;
}

/** Sorts slice[0, size) of record indices into trec_eval's order, with scratch of the same size. */
function mergeSort(slice: usize, scratch: usize, size: i32): void {
  for (let width = 1; width < size; width <<= 1) {
    for (let low = 0; low < size; low += width << 1) {
      const middle = low + width < size ? low + width : size;
      const high = low + (width << 1) < size ? low + (width << 1) : size;
      let left = low;
      let right = middle;
      let out = low;
      while (left < middle && right < high) {
        const a = load<i32>(slice + (<usize>left << 2));
        const b = load<i32>(slice + (<usize>right << 2));
        if (before(b, a)) {
          store<i32>(scratch + (<usize>out << 2), b);
          right++;
        } else {
          store<i32>(scratch + (<usize>out << 2), a);
          left++;
        }
        out++;
      }
      memory.copy(scratch + (<usize>out << 2), slice + (<usize>left << 2), <usize>(middle - left) << 2);
      out += middle - left;
      memory.copy(scratch + (<usize>out << 2), slice + (<usize>right << 2), <usize>(high - right) << 2);
    }
    memory.copy(slice, scratch, <usize>size << 2);
  }
}

// ---------------------------------------------------------------- collecting

let collectedJson: usize = 0;
let collectedTable: usize = 0;

/** Where collect() wrote its lists' JSON. */
export function json(): usize {
  return collectedJson;
}

/** Where collect() wrote its table: per topic, four i32s (its id's start in the input and length, its document count, the end of its JSON). */
export function table(): usize {
  return collectedTable;
}

/**
 * After readLines over a whole file read with startCollection: every topic's
 * documents in trec_eval's order, written as the JSON of a stored case's
 * ranking (`{"doc_uris":["d1",...],"scores":[2.5,...]}`, the scores as
 * JavaScript prints them), topics in the order the file first names them.
 * Returns the number of topics, or -1 when the file is not this kernel's to
 * collect: a byte above 0x7f anywhere in input[start, end) (JavaScript's
 * whitespace includes some non-ASCII characters), a document retrieved twice
 * for a topic, a document id with a quote or backslash (JSON escapes them),
 * or a score JavaScript prints with an exponent (below 10^-6).
 */
export function collect(start: i32, end: i32): i32 {
  if (hasHighByte(input + <usize>start, end - start)) return -1;
  groupByTopic();
  const ends = groupedEnds;
  const order = groupedOrder;
  const largest = groupedLargest;
  const seen = allocate(<usize>slotsFor(largest) << 2);
  const scratch = allocate(<usize>largest << 2);
  // Each line's document id takes its own bytes and four more (two quotes, a comma, and one to spare); its score at most 26 (writeScore: a sign, "0.", five zeros, 17 digits, one to spare) and a comma; each topic's frame 32; writeScore's scratch 64 past the end.
  const out = allocate(<usize>(end - start) + (<usize>recordCount * 32) + (<usize>topicCount << 5) + 128);
  const rows = allocate(<usize>topicCount << 4);
  let position = out;
  let from = 0;
  for (let topic = 0; topic < topicCount; topic++) {
    const to = load<i32>(ends + (<usize>topic << 2));
    const slice = order + (<usize>from << 2);
    const size = to - from;
    if (!allDifferent(slice, size, seen)) return -1;
    if (!inTrecOrder(slice, size) && !sortedCheaply(slice, size)) mergeSort(slice, scratch, size);
    position = writeText(position, '{"doc_uris":[');
    for (let index = 0; index < size; index++) {
      const offset = <usize>load<i32>(slice + (<usize>index << 2)) << 2;
      if (index > 0) store<u8>(position++, 44);
      store<u8>(position++, 34);
      const documentStart = <usize>load<i32>(recordStart + offset);
      const documentLength = load<i32>(recordLength + offset);
      for (let at = 0; at < documentLength; at++) {
        const byte = load<u8>(documentStart + at);
        if (byte === 34 || byte === 92) return -1;
        store<u8>(position + at, byte);
      }
      position += documentLength;
      store<u8>(position++, 34);
    }
    position = writeText(position, '],"scores":[');
    for (let index = 0; index < size; index++) {
      const offset = <usize>load<i32>(slice + (<usize>index << 2)) << 2;
      if (index > 0) store<u8>(position++, 44);
      position = writeScore(position, <usize>load<i32>(recordScoreStart + offset), load<i32>(recordScoreLength + offset));
      if (position === 0) return -1;
    }
    position = writeText(position, ']}');
    const row = rows + (<usize>topic << 4);
    store<i32>(row, <i32>(load<i32>(topicStart + (<usize>topic << 2)) - <i32>input));
    store<i32>(row + 4, load<i32>(topicLength + (<usize>topic << 2)));
    store<i32>(row + 8, size);
    store<i32>(row + 12, <i32>(position - out));
    from = to;
  }
  collectedJson = out;
  collectedTable = rows;
  return topicCount;
}

/** Whether any of the `length` bytes at `pointer` is above 0x7f. */
function hasHighByte(pointer: usize, length: i32): bool {
  let at = pointer;
  const words = pointer + (<usize>length & ~7);
  while (at < words) {
    if ((load<u64>(at) & HIGH_BITS) !== 0) return true;
    at += 8;
  }
  const last = pointer + <usize>length;
  while (at < last) {
    if (load<u8>(at) >= 0x80) return true;
    at++;
  }
  return false;
}

/** Writes an ASCII text at `position` and returns where it ends. */
function writeText(position: usize, text: string): usize {
  for (let index = 0; index < text.length; index++) store<u8>(position + index, <u8>text.charCodeAt(index));
  return position + <usize>text.length;
}

/** 5^0 to 5^27, each below 2^63. */
const LARGEST_EXACT_POWER_OF_FIVE = 27;
const EXACT_POWERS_OF_FIVE: usize = memory.data<u64>([
  1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625, 1220703125, 6103515625, 30517578125,
  152587890625, 762939453125, 3814697265625, 19073486328125, 95367431640625, 476837158203125, 2384185791015625, 11920928955078125,
  59604644775390625, 298023223876953125, 1490116119384765625, 7450580596923828125,
]);

/**
 * The sign of decimal × 10^-places minus `value` (a positive normal double),
 * compared exactly, for 0 < places <= 27: -1, 0 or 1. value × 10^places is
 * m × 5^places × 2^(e + places) for value = m × 2^e, and m × 5^places fits in
 * 128 bits; the two sides differ by less than a factor of two, so the shift
 * that brings them together keeps every bit.
 */
function compareDecimal(decimal: u64, places: i32, value: f64): i32 {
  const bits = reinterpret<u64>(value);
  const mantissa = (bits & ((<u64>1 << 52) - 1)) | (<u64>1 << 52);
  const shift = <i32>(bits >> 52) - 1075 + places;
  multiply(mantissa, load<u64>(EXACT_POWERS_OF_FIVE + (<usize>places << 3)));
  let high = productHigh;
  let low = productLow;
  let decimalHigh: u64 = 0;
  let decimalLow = decimal;
  if (shift > 0) {
    // value's side × 2^shift: it stays below 2^64 when it is near the decimal, or is larger.
    if (high !== 0 || shift >= 64 || low >> <u64>(64 - shift) !== 0) return -1;
    low <<= <u64>shift;
  } else if (shift < 0) {
    const left = -shift;
    if (left >= 128) return 1;
    if (left >= 64) {
      if (left > 64 && decimal >> <u64>(128 - left) !== 0) return 1;
      decimalHigh = decimal << <u64>(left - 64);
      decimalLow = 0;
    } else {
      decimalHigh = decimal >> <u64>(64 - left);
      decimalLow = decimal << <u64>left;
    }
  }
  if (decimalHigh !== high) return decimalHigh < high ? -1 : 1;
  return decimalLow < low ? -1 : decimalLow > low ? 1 : 0;
}

/** How many decimal digits a nonzero number has. */
function digitCount(digits: u64): i32 {
  let count = 0;
  for (let rest = digits; rest !== 0; rest /= 10) count++;
  return count;
}

/**
 * Writes a score as JavaScript prints the number its text names, and returns
 * where it ends, or 0 when this kernel cannot tell what JavaScript prints.
 * JavaScript prints the shortest decimal that names the same double, the
 * one nearest to it among those, the even one of two as near
 * (ECMAScript's Number::toString). A text of at most 15 significant digits is
 * that decimal (two such decimals never name one double). A longer one is
 * shortened a digit at a time while a decimal of one digit fewer names the
 * double (each read as readNumber reads it), and one still longer than 15
 * digits is then moved to the decimal of its length nearest to the double
 * (compared exactly, for numbers of about 10^-10 to 10^16; others are left to
 * the JavaScript reader).
 */
function writeScore(position: usize, start: usize, length: i32): usize {
  if (readNumber(start) !== start + <usize>length || numberDropped) return 0;
  const value = numberNegative ? -numberValue : numberValue;
  let digits = numberDigits;
  let exponent = numberExponent;
  let out = position;
  if (digits === 0) {
    // Zero (readLines took no -0).
    store<u8>(out, 48);
    return out + 1;
  }
  while (digits % 10 === 0) {
    digits /= 10;
    exponent++;
  }
  let count = digitCount(digits);
  // Fewer digits while a decimal of one digit fewer names the double: those that do form an interval around the text, so one of the two around it does; the nearer to the double when both do (exactly half way, the even one).
  while (count > 15) {
    const low = digits / 10;
    const shorter = toDouble(low, exponent + 1);
    const longer = toDouble(low + 1, exponent + 1);
    if (shorter !== shorter || longer !== longer) return 0;
    if (shorter !== value && longer !== value) break;
    let next = shorter === value ? low : low + 1;
    if (shorter === value && longer === value) {
      if (exponent >= 0 || -exponent > LARGEST_EXACT_POWER_OF_FIVE) return 0;
      const middle = compareDecimal(low * 10 + 5, -exponent, value);
      next = middle < 0 ? low + 1 : middle > 0 ? low : (low & 1) === 0 ? low : low + 1;
    }
    digits = next;
    exponent++;
    while (digits % 10 === 0) {
      digits /= 10;
      exponent++;
    }
    count = digitCount(digits);
  }
  if (count > 15) {
    // The shortest length: JavaScript takes the decimal of that length nearest to the double. Step to it while the double is half a unit or more away (exactly half, the even one), compared exactly.
    if (exponent > 0 || exponent < 1 - LARGEST_EXACT_POWER_OF_FIVE) return 0;
    for (let step = 0; ; step++) {
      if (step === 32) return 0;
      const below = compareDecimal(digits * 10 - 5, 1 - exponent, value);
      const above = compareDecimal(digits * 10 + 5, 1 - exponent, value);
      if (below > 0) digits--;
      else if (above < 0) digits++;
      else if ((below === 0 || above === 0) && (digits & 1) !== 0) digits += below === 0 ? -1 : 1;
      else break;
      if (toDouble(digits, exponent) !== value || digits % 10 === 0 || digitCount(digits) !== count) return 0;
    }
  }
  // The digits, most significant first, at the end of a 20-byte scratch after `out` (the caller's room holds them).
  const text = out + 40;
  for (let index = count - 1, rest = digits; index >= 0; index--, rest /= 10) store<u8>(text + <usize>index, <u8>(48 + <i32>(rest % 10)));
  if (numberNegative) store<u8>(out++, 45);
  // ECMAScript's Number::toString with the digits s of length k and the point after n of them.
  const k = count;
  const n = count + exponent;
  if (k <= n && n <= 21) {
    memory.copy(out, text, <usize>k);
    out += <usize>k;
    for (let index = k; index < n; index++) store<u8>(out++, 48);
  } else if (0 < n && n <= 21) {
    memory.copy(out, text, <usize>n);
    out += <usize>n;
    store<u8>(out++, 46);
    memory.copy(out, text + <usize>n, <usize>(k - n));
    out += <usize>(k - n);
  } else if (-6 < n && n <= 0) {
    store<u8>(out++, 48);
    store<u8>(out++, 46);
    for (let index = n; index < 0; index++) store<u8>(out++, 48);
    memory.copy(out, text, <usize>k);
    out += <usize>k;
  } else {
    store<u8>(out++, load<u8>(text));
    if (k > 1) {
      store<u8>(out++, 46);
      memory.copy(out, text + 1, <usize>(k - 1));
      out += <usize>(k - 1);
    }
    store<u8>(out++, 101);
    store<u8>(out++, n - 1 < 0 ? 45 : 43);
    let power = n - 1 < 0 ? 1 - n : n - 1;
    let width = 1;
    for (let rest = power / 10; rest !== 0; rest /= 10) width++;
    for (let index = width - 1; index >= 0; index--, power /= 10) store<u8>(out + <usize>index, <u8>(48 + power % 10));
    out += <usize>width;
  }
  return out;
}
