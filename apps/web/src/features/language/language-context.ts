import { createContext, useContext } from 'react';
import type { Language } from './page-converter.ts';

export interface LanguageState {
  language: Language;
  setLanguage: (language: Language) => void;
}

export const LanguageContext = createContext<LanguageState>({ language: 's', setLanguage: () => undefined });

/** The reader's simplified/traditional choice and the way to change it. */
export function useLanguage(): LanguageState {
  return useContext(LanguageContext);
}
