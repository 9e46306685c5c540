/** Amounts between our fen (integers) and the yuan text providers use ("12.30"). */

/** 1230 → "12.30". */
export function yuanOfFen(fen: number): string {
  if (!Number.isInteger(fen) || fen < 0) throw new Error(`not an amount in fen: ${fen}`);
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** "12.30", "12.3" or "12" → 1230; undefined for anything else (signs, exponents, three decimals). */
export function fenOfYuan(text: string | undefined): number | undefined {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text ?? '');
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
