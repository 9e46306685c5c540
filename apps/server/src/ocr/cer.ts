/** Levenshtein distance over code points (a rare character outside the basic plane counts as one). */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[y.length]!;
}

/** Character error rate: edit distance ÷ the truth's length, whitespace removed from both. */
export function characterErrorRate(truth: string, read: string): number {
  const t = truth.replace(/\s+/g, '');
  const r = read.replace(/\s+/g, '');
  return t.length === 0 ? 0 : editDistance(t, r) / [...t].length;
}
