import type { Language, TextConverter } from './page-converter.ts';

const cache = new Map<Language, Promise<TextConverter>>();

/**
 * The converter a choice applies, loaded on first use: 's' shows simplified (traditional → simplified),
 * 't' shows traditional (simplified → traditional). Each direction is its own lazy chunk.
 */
export function loadConverter(language: Language): Promise<TextConverter> {
  let pending = cache.get(language);
  if (!pending) {
    pending =
      language === 't'
        ? import('opencc-js/cn2t').then(({ Converter }) => Converter({ from: 'cn', to: 't' }))
        : import('opencc-js/t2cn').then(({ Converter }) => Converter({ from: 't', to: 'cn' }));
    pending.catch(() => cache.delete(language));
    cache.set(language, pending);
  }
  return pending;
}
