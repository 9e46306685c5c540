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
 * Keeps the page in the chosen script: converts document.body when the choice is made (and on load,
 * from the stored choice), then every node React adds or changes, through a MutationObserver.
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
      loadConverter(language).then(
        (convert) => {
          if (cancelled) return;
          converter.setConverter(convert);
          converter.convertTree(document.body);
          const title = document.querySelector('head > title');
          if (title) converter.convertTree(title);
          document.documentElement.lang = htmlLangFor(language);
          applied.current = language;
        },
        () => undefined, // The chunk failed to load (offline): the page stays as the server wrote it.
      );
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
