/**
 * A compact letter display of all-pairwise comparisons: each system gets
 * letters, and two systems share a letter exactly when the comparisons did
 * not separate them. Built by Piepho's insert-and-absorb algorithm (Piepho,
 * "An algorithm for a letter-based representation of all-pairwise
 * comparisons", Journal of Computational and Graphical Statistics 13, 2004):
 *
 *   start with one group holding every system;
 *   for each separated pair (i, j): every group holding both is replaced by
 *     two copies, one without i and one without j;
 *   then drop every group that another group contains (absorb).
 *
 * The groups left are the largest sets of systems no two of which are
 * separated; each becomes a letter. Systems are given in rank order (index 0
 * the best), and letters go to the groups in that order (the group of the
 * best system `a`), so the letters read down a ranked table. After `z` come
 * `aa`, `ab`, ...: letters are returned as lists, never joined into a word.
 *
 * Undefined when the groups would pass `maxGroups` (the count can grow
 * exponentially with separations that contradict each other; on a ranking it
 * stays near the number of systems): the caller says there are no letters.
 */
export function compactLetterDisplay(
  count: number,
  separated: readonly (readonly [number, number])[],
  maxGroups = 4096,
): string[][] | undefined {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`Expected a count of systems from 0 up, got ${count}`);
  let groups: boolean[][] = count === 0 ? [] : [Array.from({ length: count }, () => true)];
  for (const [first, second] of separated) {
    if (!(isIndex(first, count) && isIndex(second, count) && first !== second)) {
      throw new RangeError(`Expected a pair of two systems below ${count}, got [${first}, ${second}]`);
    }
    const next: boolean[][] = [];
    for (const group of groups) {
      if (group[first] === true && group[second] === true) {
        next.push(without(group, first), without(group, second));
      } else next.push(group);
    }
    groups = absorbed(next);
    if (groups.length > maxGroups) return undefined;
  }
  const ordered = groups.map(members).sort(compareMembers);
  const letters: string[][] = Array.from({ length: count }, () => []);
  for (const [index, group] of ordered.entries()) for (const system of group) letters[system]?.push(letterName(index));
  return letters;
}

/** The name of the index-th letter: a..z, then aa..az, ba..bz, ... */
export function letterName(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) name = String.fromCharCode(97 + ((rest - 1) % 26)) + name;
  return name;
}

function isIndex(value: number, count: number): boolean {
  return Number.isInteger(value) && value >= 0 && value < count;
}

function without(group: readonly boolean[], system: number): boolean[] {
  const copy = group.slice();
  copy[system] = false;
  return copy;
}

/** The groups no other group contains, each once (of equal groups, the first). */
function absorbed(groups: readonly boolean[][]): boolean[][] {
  return groups.filter(
    (group, index) =>
      !groups.some(
        (other, otherIndex) => otherIndex !== index && contains(other, group) && (!contains(group, other) || otherIndex < index),
      ),
  );
}

function contains(outer: readonly boolean[], inner: readonly boolean[]): boolean {
  return inner.every((member, system) => !member || outer[system] === true);
}

function members(group: readonly boolean[]): number[] {
  return group.flatMap((member, system) => (member ? [system] : []));
}

/** By the best system of each group, then the next, ...: a group that starts higher comes first. */
function compareMembers(left: readonly number[], right: readonly number[]): number {
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = (left[index] as number) - (right[index] as number);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}
