import { chineseNumeralValue, NUMERAL_RUN } from './chinese-numeral.ts';

/** The name with each Chinese numeral written in digits, for comparison. */
const withDigits = (name: string) =>
  name.replace(NUMERAL_RUN, (run) => {
    const value = chineseNumeralValue(run);
    return value === null ? run : String(value);
  });

const collator = new Intl.Collator('und', { numeric: true, sensitivity: 'variant' });

/**
 * The order of page file names as people number them: digits by value (2 before 10) and Chinese
 * numerals by value too (第二葉 before 第十葉, 卷十一 after 卷九), the rest by character. Not the
 * pinyin order of a 'zh' collation, which puts 二 (èr) before 一 (yī).
 */
export function naturalOrder(a: string, b: string): number {
  return collator.compare(withDigits(a), withDigits(b)) || collator.compare(a, b);
}
