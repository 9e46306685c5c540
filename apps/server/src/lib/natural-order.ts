/**
 * The order of page file names as people number them: digits by value (2 before 10) and Chinese
 * numerals by value too (第二葉 before 第十葉, 卷十一 after 卷九), the rest by character. Not the
 * pinyin order of a 'zh' collation, which puts 二 (èr) before 一 (yī).
 */
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
const NUMERAL_RUN = /[〇零一二两兩三四五六七八九十百千]+/g;

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

/** The name with each Chinese numeral written in digits, for comparison. */
const withDigits = (name: string) =>
  name.replace(NUMERAL_RUN, (run) => {
    const value = chineseNumeralValue(run);
    return value === null ? run : String(value);
  });

const collator = new Intl.Collator('und', { numeric: true, sensitivity: 'variant' });

export function naturalOrder(a: string, b: string): number {
  return collator.compare(withDigits(a), withDigits(b)) || collator.compare(a, b);
}
