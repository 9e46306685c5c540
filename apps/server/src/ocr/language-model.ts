/**
 * A character trigram model of classical Chinese for the OCR (issue 14 part 4): the recogniser sees one
 * character at a time and mistakes look-alikes (曰/日, 遷/還, 傳/傅); which of its candidates a text
 * would hold is a question of context. Interpolated absolute discounting (Ney et al.): each order keeps
 * its counts minus a discount and hands the rest down to the next lower order, in proportion to how many
 * different characters followed the context (and what the pruned singletons held), so every character of
 * the vocabulary has a probability and the mass sums to one.
 *
 * Stored compactly: characters by id (most frequent first), unigram counts, the bigrams and trigrams seen
 * at least twice as sorted numeric keys with their counts; lookups are binary searches. Built from plain
 * texts (poems, prose, the demo classics) in a few seconds; `serialize`/`deserialize` keep a built model
 * (language-model-loader.ts finds the texts and keeps the model built from them).
 */

/** Discount subtracted from every seen n-gram count. */
const D = 0.75;
/** Bigrams and trigrams seen fewer times are not kept (their mass goes to the lower order). */
const MIN_COUNT = 2;
/** File format version: a change of layout or of the building rules makes old files stale. */
export const LM_FORMAT = 1;

/** 1 + the index of `key` in the ascending `keys`, or 0 (binary search). */
function findKey(keys: ArrayLike<number>, key: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = keys[mid]!;
    if (k === key) return mid + 1;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** Each distinct key of an ascending array, with how many times it occurs. */
function* runsOf(sorted: ArrayLike<number>): Generator<[number, number]> {
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j < sorted.length && sorted[j] === sorted[i]) j++;
    yield [sorted[i]!, j - i];
    i = j;
  }
}

/** Han characters (CJK Unified Ideographs and Extensions A–H, compatibility ideographs) and 〇. */
export function isHan(codePoint: number): boolean {
  return (
    (codePoint >= 0x4e00 && codePoint <= 0x9fff) ||
    (codePoint >= 0x3400 && codePoint <= 0x4dbf) ||
    (codePoint >= 0x20000 && codePoint <= 0x323af) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    codePoint === 0x3007
  );
}

export class CharLanguageModel {
  private readonly index = new Map<string, number>();
  private readonly total: number;

  private constructor(
    /** Characters by id. */
    readonly chars: string[],
    private readonly uni: Uint32Array,
    /** Bigram keys a·V + b, ascending, with their counts. */
    private readonly biKeys: Uint32Array,
    private readonly biCounts: Uint32Array,
    /** Per unigram as a context: how many bigrams it starts, and the backed-off mass numerator. */
    private readonly uniFollow: Uint32Array,
    private readonly uniBackoff: Float32Array,
    /** Per kept bigram as a context: trigrams it starts and the backed-off mass numerator. */
    private readonly biFollow: Uint32Array,
    private readonly biBackoff: Float32Array,
    /** Trigram keys (a·V + b)·V + c, ascending, with their counts. */
    private readonly triKeys: Float64Array,
    private readonly triCounts: Uint32Array,
  ) {
    chars.forEach((char, id) => this.index.set(char, id));
    let sum = 0;
    for (const count of uni) sum += count;
    this.total = sum;
  }

  /** Number of characters in the vocabulary. */
  get size(): number {
    return this.chars.length;
  }

  /** Characters of training text seen. */
  get tokens(): number {
    return this.total;
  }

  /** The character's id, or -1 when the texts never had it. */
  id(char: string): number {
    return this.index.get(char) ?? -1;
  }

  /** How often the texts had the character. */
  count(char: string): number {
    const id = this.id(char);
    return id < 0 ? 0 : this.uni[id]!;
  }

  /** ln P(c), with half a count for a character never seen. */
  private unigram(c: number): number {
    const V = this.chars.length;
    return ((c < 0 ? 0 : this.uni[c]!) + 0.5) / (this.total + 0.5 * (V + 1));
  }

  /** P(c | b); b < 0: no context. */
  private bigram(b: number, c: number): number {
    const lower = this.unigram(c);
    if (b < 0) return lower;
    const follow = this.uniFollow[b]!;
    if (follow === 0) return lower;
    const count = c < 0 ? 0 : this.lookupBigram(b, c);
    const seen = count > 0 ? this.biCounts[count - 1]! : 0;
    return Math.max(seen - D, 0) / follow + (this.uniBackoff[b]! / follow) * lower;
  }

  /** 1 + the index of bigram (b, c), or 0. */
  private lookupBigram(b: number, c: number): number {
    return findKey(this.biKeys, b * this.chars.length + c);
  }

  /** ln P(c | a b): a or b < 0 means no such context (start of a text, or an unknown character). */
  logProb(a: number, b: number, c: number): number {
    const lower = this.bigram(b, c);
    if (a < 0 || b < 0) return Math.log(lower);
    const context = this.lookupBigram(a, b);
    if (context === 0) return Math.log(lower);
    const follow = this.biFollow[context - 1]!;
    if (follow === 0) return Math.log(lower);
    const V = this.chars.length;
    const found = c < 0 ? 0 : findKey(this.triKeys, (a * V + b) * V + c);
    const seen = found > 0 ? this.triCounts[found - 1]! : 0;
    return Math.log(Math.max(seen - D, 0) / follow + (this.biBackoff[context - 1]! / follow) * lower);
  }

  /** Average ln P per character of a text (for tests and the benchmark's report). */
  meanLogProb(text: string): number {
    const ids = [...text].map((ch) => this.id(ch));
    let sum = 0;
    ids.forEach((c, i) => (sum += this.logProb(ids[i - 2] ?? -1, ids[i - 1] ?? -1, c)));
    return ids.length === 0 ? 0 : sum / ids.length;
  }

  /**
   * Counts the texts' Han characters: each text is one run (a poem, a paragraph) in which every other
   * character (punctuation, spaces) is dropped, since pages carry no punctuation.
   */
  static build(texts: Iterable<string>): CharLanguageModel {
    const { chars, uni, sequence, n } = charSequence(texts);
    const V = chars.length;
    const bi = countBigrams(sequence, n, V);
    const tri = countTrigrams(sequence, n, V, bi.biKeys);
    return new CharLanguageModel(
      chars,
      uni,
      bi.biKeys,
      bi.biCounts,
      bi.uniFollow,
      bi.uniBackoff,
      tri.biFollow,
      tri.biBackoff,
      tri.triKeys,
      tri.triCounts,
    );
  }

  /** The model as bytes: a JSON header (format, sizes, characters) then the typed arrays. */
  serialize(): Buffer {
    const arrays = [
      this.uni,
      this.biKeys,
      this.biCounts,
      this.uniFollow,
      this.uniBackoff,
      this.biFollow,
      this.biBackoff,
      this.triKeys,
      this.triCounts,
    ];
    const header = Buffer.from(
      JSON.stringify({
        format: LM_FORMAT,
        chars: this.chars.join(''),
        lengths: arrays.map((a) => a.length),
      }),
    );
    // Every array starts on an 8-byte boundary so it can be viewed in place.
    const pad = (n: number) => (8 - (n % 8)) % 8;
    const parts: Buffer[] = [Buffer.alloc(4), header, Buffer.alloc(pad(4 + header.length))];
    parts[0]!.writeUInt32LE(header.length);
    for (const array of arrays) {
      const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
      parts.push(bytes, Buffer.alloc(pad(bytes.length)));
    }
    return Buffer.concat(parts);
  }

  /** A model from `serialize`'s bytes; undefined when they are of another format or damaged. */
  static deserialize(bytes: Buffer): CharLanguageModel | undefined {
    try {
      const headerLength = bytes.readUInt32LE(0);
      const header = JSON.parse(bytes.subarray(4, 4 + headerLength).toString('utf8')) as {
        format: number;
        chars: string;
        lengths: number[];
      };
      if (header.format !== LM_FORMAT || header.lengths.length !== 9) return undefined;
      const pad = (n: number) => (8 - (n % 8)) % 8;
      let offset = 4 + headerLength + pad(4 + headerLength);
      // A copy on an aligned buffer: the file's bytes may sit at any offset of a pooled buffer.
      const aligned = new ArrayBuffer(bytes.length - offset);
      new Uint8Array(aligned).set(bytes.subarray(offset));
      offset = 0;
      const kinds = [
        Uint32Array,
        Uint32Array,
        Uint32Array,
        Uint32Array,
        Float32Array,
        Uint32Array,
        Float32Array,
        Float64Array,
        Uint32Array,
      ] as const;
      const arrays = kinds.map((Kind, i) => {
        const length = header.lengths[i]!;
        const array = new Kind(aligned, offset, length);
        offset += length * Kind.BYTES_PER_ELEMENT;
        offset += pad(offset);
        return array;
      });
      const chars = [...header.chars];
      if (arrays[0]!.length !== chars.length || offset > aligned.byteLength) return undefined;
      return new CharLanguageModel(
        chars,
        arrays[0] as Uint32Array,
        arrays[1] as Uint32Array,
        arrays[2] as Uint32Array,
        arrays[3] as Uint32Array,
        arrays[4] as Float32Array,
        arrays[5] as Uint32Array,
        arrays[6] as Float32Array,
        arrays[7] as Float64Array,
        arrays[8] as Uint32Array,
      );
    } catch {
      return undefined;
    }
  }
}

/**
 * Pass 1 of building the model: the Han characters of the texts, most frequent first (at most 65,535, so
 * a bigram key fits 32 bits), their counts, and the texts as id sequences with -1 between them.
 */
function charSequence(texts: Iterable<string>) {
  // Pass 1: characters and their counts; runs as id sequences with -1 between texts.
  const counts = new Map<string, number>();
  const runs: string[] = [];
  let length = 0;
  for (const text of texts) {
    let run = '';
    for (const ch of text) {
      if (!isHan(ch.codePointAt(0)!)) continue;
      run += ch;
      counts.set(ch, (counts.get(ch) ?? 0) + 1);
      length++;
    }
    if (run !== '') runs.push(run);
  }
  // Most frequent first; at most 65,535 characters so a bigram key fits 32 bits.
  const chars = [...counts.entries()]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, 65535)
    .map(([ch]) => ch);
  const index = new Map(chars.map((ch, i) => [ch, i]));
  const uni = Uint32Array.from(chars, (ch) => counts.get(ch)!);
  const sequence = new Int32Array(length + runs.length);
  let at = 0;
  for (const run of runs) {
    for (const ch of run) sequence[at++] = index.get(ch) ?? -1;
    sequence[at++] = -1;
  }
  const n = at;
  return { chars, uni, sequence, n };
}

/** Bigrams: the keys of every adjacent pair sorted and counted; rare ones pruned into the backoff. */
function countBigrams(sequence: Int32Array, n: number, V: number) {
  let pairs = 0;
  for (let i = 0; i + 1 < n; i++) if (sequence[i]! >= 0 && sequence[i + 1]! >= 0) pairs++;
  const allBi = new Uint32Array(pairs);
  for (let i = 0, k = 0; i + 1 < n; i++) {
    const a = sequence[i]!;
    const b = sequence[i + 1]!;
    if (a >= 0 && b >= 0) allBi[k++] = a * V + b;
  }
  allBi.sort();
  const uniFollow = new Uint32Array(V);
  const uniBackoff = new Float32Array(V);
  const biKeyList: number[] = [];
  const biCountList: number[] = [];
  for (const [key, count] of runsOf(allBi)) {
    const a = Math.floor(key / V);
    uniFollow[a]! += count;
    if (count >= MIN_COUNT) {
      biKeyList.push(key);
      biCountList.push(count);
      uniBackoff[a]! += D;
    } else uniBackoff[a]! += count; // a pruned bigram's whole count goes down
  }
  const biKeys = Uint32Array.from(biKeyList);
  const biCounts = Uint32Array.from(biCountList);
  return { biKeys, biCounts, uniFollow, uniBackoff };
}

/** Trigrams: the same over adjacent triples whose first two characters are a kept bigram. */
function countTrigrams(sequence: Int32Array, n: number, V: number, biKeys: Uint32Array) {
  let triples = 0;
  for (let i = 0; i + 2 < n; i++)
    if (sequence[i]! >= 0 && sequence[i + 1]! >= 0 && sequence[i + 2]! >= 0) triples++;
  const allTri = new Float64Array(triples);
  for (let i = 0, k = 0; i + 2 < n; i++) {
    const a = sequence[i]!;
    const b = sequence[i + 1]!;
    const c = sequence[i + 2]!;
    if (a >= 0 && b >= 0 && c >= 0) allTri[k++] = (a * V + b) * V + c;
  }
  allTri.sort();
  const biFollow = new Uint32Array(biKeys.length);
  const biBackoff = new Float32Array(biKeys.length);
  const triKeyList: number[] = [];
  const triCountList: number[] = [];
  for (const [key, count] of runsOf(allTri)) {
    // The trigram's first two characters: its key ÷ V is their bigram's key.
    const context = findKey(biKeys, Math.floor(key / V));
    if (context === 0) continue;
    biFollow[context - 1]! += count;
    if (count >= MIN_COUNT) {
      triKeyList.push(key);
      triCountList.push(count);
      biBackoff[context - 1]! += D;
    } else biBackoff[context - 1]! += count;
  }
  return {
    biFollow,
    biBackoff,
    triKeys: Float64Array.from(triKeyList),
    triCounts: Uint32Array.from(triCountList),
  };
}
