import type { Language, TextConverter } from './page-converter.ts';

const cache = new Map<Language, Promise<TextConverter>>();

/**
 * Phrases the converter splits wrongly in this site's words (卷册 "volumes" read as 添加捲 + 冊), put
 * right after conversion.
 */
const TRADITIONAL_FIXES: ReadonlyArray<[string, string]> = [['捲冊', '卷冊']];

/**
 * The converter a choice applies, loaded on first use: 's' shows simplified (traditional → simplified),
 * 't' shows traditional (simplified → traditional, in the forms readers in Taiwan and Hong Kong read
 * every day: 為, 審核, not OpenCC's older standard 爲, 審覈). Each direction is its own lazy chunk.
 */
export function loadConverter(language: Language): Promise<TextConverter> {
  let pending = cache.get(language);
  if (!pending) {
    pending =
      language === 't'
        ? import('opencc-js/cn2t').then(({ Converter }) => {
            const convert = Converter({ from: 'cn', to: 'tw' });
            return (text: string) =>
              TRADITIONAL_FIXES.reduce((out, [wrong, right]) => out.replaceAll(wrong, right), convert(text));
          })
        : import('opencc-js/t2cn').then(({ Converter }) => Converter({ from: 't', to: 'cn' }));
    pending.catch(() => cache.delete(language));
    cache.set(language, pending);
  }
  return pending;
}
