const DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
const UNITS = ['', '十', '百', '千'];

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
    const unit = UNITS[digits.length - 1 - i]!;
    if (d === 0) {
      pendingZero = out !== '';
      return;
    }
    if (pendingZero) out += '零';
    pendingZero = false;
    // 十 alone for 10–19, as in 十二; but 一百一十 keeps its 一.
    out += d === 1 && unit === '十' && out === '' ? unit : DIGITS[d]! + unit;
  });
  return out;
}
