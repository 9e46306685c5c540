/** Recognised characters to their traditional forms, keeping those classical texts use as they are. */
import { ConverterBuilder, type ConverterFunction } from 'opencc-js/core';
import * as cn2tPreset from 'opencc-js/preset/cn2t';

/**
 * Characters that are simplified forms of some traditional characters and yet are traditional
 * characters themselves, used as they are in classical texts (OpenCC's character table lists them with
 * several targets; opencc-js keeps only one): 云 (said), 于 (at), 后 (queen; 而后), 里 (village) …
 */
const ALSO_TRADITIONAL = new Set([
  ...'云于后里面发干松谷台几只表范丑冲历余征斗胡借志制系了才卜夸回朴别合向吁咸困折并板致舍蒙术克党仆价伙佣冬出划卷厘尝采丰汇杰郁注准症凶布占朱洒御游雕姜伤',
]);

/**
 * Simplified → traditional for recognised characters (the model's dictionary is mostly simplified),
 * one character at a time, except the ones classical texts also use as they are (云, 于, 后 …).
 */
export function safeTraditional(): (char: string) => string {
  const convert: ConverterFunction = ConverterBuilder(cn2tPreset)({ from: 'cn', to: 't' });
  return (char) => {
    if (ALSO_TRADITIONAL.has(char)) return char;
    const converted = convert(char);
    return [...converted].length === 1 ? converted : char;
  };
}
