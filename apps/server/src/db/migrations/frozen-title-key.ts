/**
 * The search key of a title as migrations 0004 and 0007 computed it (a frozen copy of search/fold.ts of
 * 28 Nov 2026): a migration must give the same result whatever the live code later becomes, so it never
 * imports it. Live code keeps `books.title_search` with search/fold.ts's `titleSearchKey`.
 */
import { ConverterBuilder, type ConverterFunction } from 'opencc-js/core';
import * as t2cnPreset from 'opencc-js/preset/t2cn';

let toSimplified: ConverterFunction | undefined;

const VARIANTS: Record<string, string> = {
  淸: '清',
  靑: '青',
  吿: '告',
  姉: '姊',
  囘: '回',
  竝: '並',
  槪: '概',
  徧: '遍',
  兎: '兔',
  氷: '冰',
  甞: '嘗',
  緜: '綿',
  疎: '疏',
  鬭: '鬥',
  鬪: '鬥',
  痲: '麻',
  罸: '罰',
  勑: '敕',
  敍: '敘',
  錬: '鍊',
  煑: '煮',
  凾: '函',
  覩: '睹',
  衞: '衛',
  甯: '寧',
  寗: '寧',
  隣: '鄰',
  坿: '附',
  汚: '污',
  麤: '粗',
  廼: '乃',
  迺: '乃',
  峩: '峨',
  崐: '崑',
  歳: '歲',
  乗: '乘',
  黒: '黑',
  冩: '寫',
  舩: '船',
  皷: '鼓',
  纔: '才',
  沈: '沉',
  絃: '弦',
  脗: '吻',
  虵: '蛇',
};

const folded = new Map<string, string>();

/**
 * Folds one character for matching: variant table, then traditional to simplified (OpenCC, character by
 * character), then lower case. A character that would fold to more than one becomes itself.
 */
function foldChar(char: string): string {
  let result = folded.get(char);
  if (result === undefined) {
    toSimplified ??= ConverterBuilder(t2cnPreset)({ from: 'tw', to: 'cn' });
    const converted = toSimplified(VARIANTS[char] ?? char).toLowerCase();
    result = [...converted].length === 1 ? converted : char;
    folded.set(char, result);
  }
  return result;
}

/**
 * Folds text for matching, character by character, so 論語, 论语 and 論语 all match each other and the
 * n-th character of the result is the fold of the n-th character (code point) of the text: positions
 * found in folded text are positions in the original.
 */
function foldText(text: string): string {
  let out = '';
  for (const char of text) out += foldChar(char);
  return out;
}

/**
 * The search key of a title: folded, whitespace removed, one space between characters (code points),
 * so a full-text index sees every character as a token and a phrase query is a substring search.
 */
export function titleSearchKey(title: string): string {
  return [...foldText(title).replace(/\s+/g, '')].join(' ');
}
