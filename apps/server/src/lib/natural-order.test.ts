import { describe, expect, it } from 'vitest';
import { chineseNumeralValue } from './chinese-numeral.ts';
import { naturalOrder } from './natural-order.ts';

describe('natural order of page names', () => {
  it('reads Chinese numerals', () => {
    expect(chineseNumeralValue('一')).toBe(1);
    expect(chineseNumeralValue('十')).toBe(10);
    expect(chineseNumeralValue('十一')).toBe(11);
    expect(chineseNumeralValue('二十')).toBe(20);
    expect(chineseNumeralValue('一百零五')).toBe(105);
    expect(chineseNumeralValue('二〇二六')).toBe(2026);
  });

  it('orders digits and Chinese numerals by value, not by pinyin', () => {
    expect(['10.png', '2.png', '1.png'].sort(naturalOrder)).toEqual(['1.png', '2.png', '10.png']);
    expect(['第二葉', '第十葉', '第一葉', '第十一葉', '第九葉'].sort(naturalOrder)).toEqual([
      '第一葉',
      '第二葉',
      '第九葉',
      '第十葉',
      '第十一葉',
    ]);
    expect(['卷二/3.jpg', '卷一/10.jpg', '卷一/2.jpg'].sort(naturalOrder)).toEqual([
      '卷一/2.jpg',
      '卷一/10.jpg',
      '卷二/3.jpg',
    ]);
    expect(['序.png', '跋.png'].sort(naturalOrder)).toEqual(
      ['序.png', '跋.png'].sort((a, b) => (a < b ? -1 : 1)),
    );
  });
});
