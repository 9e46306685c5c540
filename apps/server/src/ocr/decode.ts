import * as t2cnPreset from 'opencc-js/preset/t2cn';
import type { CharLanguageModel } from './language-model.ts';

/** One reading of a cell: the character and its score (ln of the recogniser's probability, and priors). */
export interface Candidate {
  char: string;
  score: number;
}

/**
 * The best reading of a run of cells (a page's columns in reading order) under the recogniser's scores
 * and the language model: Viterbi over the cells' candidates with the last two characters as the state,
 * maximising Σ score + weight · ln P(char | two before). Returns the index of the chosen candidate of
 * each cell. Cells without candidates are passed over (they keep no context).
 */
export function decodeCells(cells: Candidate[][], lm: CharLanguageModel, weight: number): number[] {
  const chosen = cells.map(() => 0);
  // Runs of cells that have candidates; an empty cell breaks the context.
  let start = 0;
  while (start < cells.length) {
    if (cells[start]!.length === 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < cells.length && cells[end]!.length > 0) end++;
    decodeRun(cells.slice(start, end), lm, weight).forEach((choice, i) => (chosen[start + i] = choice));
    start = end;
  }
  return chosen;
}

function decodeRun(cells: Candidate[][], lm: CharLanguageModel, weight: number): number[] {
  const ids = cells.map((cands) => cands.map((c) => lm.id(c.char)));
  const n = cells.length;
  // score[p][q]: best total ending with candidate p at i − 1 and q at i; back[i][p][q]: the best o at i − 2.
  let prevK = 1;
  let score: Float64Array[] = [
    Float64Array.from(cells[0]!, (c, q) => c.score + weight * lm.logProb(-1, -1, ids[0]![q]!)),
  ];
  const back: Int32Array[][] = [];
  for (let i = 1; i < n; i++) {
    const K = cells[i]!.length;
    const Kp = cells[i - 1]!.length;
    const next: Float64Array[] = [];
    const pointers: Int32Array[] = [];
    for (let p = 0; p < Kp; p++) {
      const row = new Float64Array(K).fill(-Infinity);
      const ptr = new Int32Array(K);
      for (let q = 0; q < K; q++) {
        const emit = cells[i]![q]!.score;
        for (let o = 0; o < prevK; o++) {
          const before = score[o]![p]!;
          if (before === -Infinity) continue;
          const a = i >= 2 ? ids[i - 2]![o]! : -1;
          const total = before + emit + weight * lm.logProb(a, ids[i - 1]![p]!, ids[i]![q]!);
          if (total > row[q]!) {
            row[q] = total;
            ptr[q] = o;
          }
        }
      }
      next.push(row);
      pointers.push(ptr);
    }
    back.push(pointers);
    score = next;
    prevK = Kp;
  }
  // The best last pair, then back along the pointers.
  const result = new Array<number>(n).fill(0);
  let bestP = 0;
  let bestQ = 0;
  let best = -Infinity;
  score.forEach((row, p) =>
    row.forEach((value, q) => {
      if (value > best) {
        best = value;
        bestP = p;
        bestQ = q;
      }
    }),
  );
  if (n === 1) {
    result[0] = bestQ;
    return result;
  }
  result[n - 1] = bestQ;
  result[n - 2] = bestP;
  for (let i = n - 1; i >= 2; i--) {
    const o = back[i - 1]![result[i - 1]!]![result[i]!]!;
    result[i - 2] = o;
  }
  return result;
}

let traditionalOf: Map<string, string[]> | undefined;

/**
 * The traditional characters OpenCC turns into this one (its traditional → simplified character table
 * read backwards): 赞 ← 贊, 讚; 峰 ← 峯; 却 ← 卻. The recogniser's dictionary is mostly simplified, and a
 * page may hold any of them.
 */
export function traditionalForms(char: string): string[] {
  if (!traditionalOf) {
    traditionalOf = new Map();
    for (const group of t2cnPreset.to.cn ?? [])
      for (const dict of group) {
        if (typeof dict !== 'string') continue;
        for (const entry of dict.split('|')) {
          const [from, to] = entry.split(' ');
          if (!from || !to || [...from].length !== 1 || [...to].length !== 1) continue;
          const list = traditionalOf.get(to) ?? [];
          if (!list.includes(from)) list.push(from);
          traditionalOf.set(to, list);
        }
      }
  }
  return traditionalOf.get(char) ?? [];
}
