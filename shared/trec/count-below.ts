/**
 * How many values of an ascending array are below a score (the first place
 * the score could take), asked for many scores in a row: for each retrieved
 * document of a topic, where its score falls among the judged ones.
 *
 * A table of buckets over the array's range guesses the answer in constant
 * time, and a walk from the guess makes it exact: forward past the values
 * below the score, back past those not below it. The walks make the answer
 * right whatever the guess, so the bucket arithmetic needs no care about
 * rounding; a good guess only makes them short. Without a finite, non-empty
 * range (one value, infinities) it is a binary search.
 */
export class CountBelow {
  private readonly low: number;
  private readonly scale: number;
  private readonly starts: Uint32Array;

  constructor(private readonly ascending: Float64Array) {
    const count = ascending.length;
    const bucketCount = 2 * count;
    this.low = count === 0 ? 0 : (ascending[0] as number);
    const scale = count === 0 ? Number.NaN : bucketCount / ((ascending[count - 1] as number) - this.low);
    this.scale = Number.isFinite(scale) && Number.isFinite(this.low) ? scale : Number.NaN;
    this.starts = new Uint32Array(Number.isNaN(this.scale) ? 0 : bucketCount);
    let below = 0;
    for (let bucket = 0; bucket < this.starts.length; bucket++) {
      const bucketStart = this.low + bucket / this.scale;
      while (below < count && (ascending[below] as number) < bucketStart) below++;
      this.starts[bucket] = below;
    }
  }

  /** The number of values below `score`. */
  of(score: number): number {
    const ascending = this.ascending;
    const last = this.starts.length - 1;
    if (last < 0) return lowerBound(ascending, score);
    const guess = Math.floor((score - this.low) * this.scale);
    let below = this.starts[guess > 0 ? Math.min(guess, last) : 0] as number;
    while (below < ascending.length && (ascending[below] as number) < score) below++;
    while (below > 0 && (ascending[below - 1] as number) >= score) below--;
    return below;
  }
}

function lowerBound(ascending: Float64Array, score: number): number {
  let low = 0;
  let high = ascending.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ascending[middle] as number) < score) low = middle + 1;
    else high = middle;
  }
  return low;
}
