import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { LanguageContext } from './language-context.ts';
import { loadConverter } from './opencc-loader.ts';
import {
  CONVERTED_ATTRIBUTES,
  LANGUAGE_STORAGE_KEY,
  PageConverter,
  htmlLangFor,
  parseLanguage,
  type Language,
  type TextConverter,
} from './page-converter.ts';

/** Spec §4: the page converts 500 ms after the choice. */
const CONVERSION_DELAY_MS = 500;

function readStoredLanguage(): Language {
  try {
    return parseLanguage(window.localStorage.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    return 's';
  }
}

/**
 * Keeps the page in the chosen script: converts document.body when 繁 is chosen (and on load, from the
 * stored choice), then every node React adds or changes, through a MutationObserver; 简 is the page as
 * written.
 */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(readStoredLanguage);
  const converter = useMemo(() => new PageConverter(), []);
  /** The choice the page was last converted to; null until the first conversion. */
  const applied = useRef<Language | null>(null);

  useEffect(() => {
    const observer = new MutationObserver((records) => converter.applyMutations(records));
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: [...CONVERTED_ATTRIBUTES],
    });
    // The window title (set per page) is read in the same script as the page.
    const title = document.querySelector('head > title');
    if (title) observer.observe(title, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [converter]);

  useEffect(() => {
    let cancelled = false;
    // On load the stored choice applies at once; a new choice after the delay of spec §4.
    const delay = applied.current === null ? 0 : CONVERSION_DELAY_MS;
    const timer = window.setTimeout(() => {
      const apply = (convert: TextConverter | null) => {
        if (cancelled) return;
        converter.setConverter(convert);
        converter.convertTree(document.body);
        const title = document.querySelector('head > title');
        if (title) converter.convertTree(title);
        document.documentElement.lang = htmlLangFor(language);
        applied.current = language;
      };
      // The interface is written in simplified characters: 简 shows it as written (and puts back what
      // 繁 converted) without loading a dictionary; 繁 loads its converter on first use.
      if (language === 's') apply(null);
      else loadConverter(language).then(apply, () => undefined); // Offline: the page stays as written.
    }, delay);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [language, converter]);

  const value = useMemo(
    () => ({
      language,
      setLanguage: (next: Language) => {
        try {
          window.localStorage.setItem(LANGUAGE_STORAGE_KEY, next);
        } catch {
          // Storage may be disabled; the choice then lasts until reload.
        }
        setLanguageState(next);
      },
    }),
    [language],
  );

  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}
