import { ConverterBuilder, type ConverterFunction } from 'opencc-js/core';
import * as t2cnPreset from 'opencc-js/preset/t2cn';

let toSimplified: ConverterFunction | undefined;

/**
 * Folds text for matching: traditional to simplified (OpenCC), lower case, so 論語, 论语 and 論语 all
 * match each other. Character for character, so positions stay comparable.
 */
export function foldText(text: string): string {
  toSimplified ??= ConverterBuilder(t2cnPreset)({ from: 'tw', to: 'cn' });
  return toSimplified(text).toLowerCase();
}

/**
 * The search key of a title: folded, whitespace removed, one space between characters (code points),
 * so a full-text index sees every character as a token and a phrase query is a substring search.
 */
export function titleSearchKey(title: string): string {
  return [...foldText(title).replace(/\s+/g, '')].join(' ');
}
