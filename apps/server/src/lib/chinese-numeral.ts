/** Chinese numerals, read (一百二十三 → 123, 二〇二六 → 2026) and written (12 → 十二). */

const DIGITS: Record<string, number> = {
  〇: 0,
  零: 0,
  一: 1,
  二: 2,
  两: 2,
  兩: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };
export const NUMERAL_RUN = /[〇零一二两兩三四五六七八九十百千]+/g;

/** The value of a run of Chinese numerals (一百二十三, 十一, 二〇二六), or null if it is not a number. */
export function chineseNumeralValue(run: string): number | null {
  const chars = [...run];
  // Digit by digit (二〇二六, 一九).
  if (chars.every((c) => c in DIGITS) && chars.length > 1)
    return Number(chars.map((c) => DIGITS[c]).join(''));
  let total = 0;
  let digit: number | null = null;
  for (const c of chars) {
    if (c in DIGITS) {
      if (digit !== null && digit !== 0) return null;
      digit = DIGITS[c]!;
    } else {
      total += (digit ?? 1) * UNITS[c]!;
      digit = null;
    }
  }
  return total + (digit ?? 0);
}

const WRITTEN_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
const WRITTEN_UNITS = ['', '十', '百', '千'];

/**
 * Writes a positive integer below 10,000 in Chinese numerals as leaf numbers and chapter ordinals
 * are printed: 1 一, 10 十, 12 十二, 20 二十, 101 一百零一, 110 一百一十.
 */
export function chineseNumeral(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > 9999)
    throw new RangeError(`cannot write ${n} in Chinese numerals`);
  const digits = String(n).split('').map(Number);
  let out = '';
  let pendingZero = false;
  digits.forEach((d, i) => {
    const unit = WRITTEN_UNITS[digits.length - 1 - i]!;
    if (d === 0) {
      pendingZero = out !== '';
      return;
    }
    if (pendingZero) out += '零';
    pendingZero = false;
    // 十 alone for 10–19, as in 十二; but 一百一十 keeps its 一.
    out += d === 1 && unit === '十' && out === '' ? unit : WRITTEN_DIGITS[d]! + unit;
  });
  return out;
}
