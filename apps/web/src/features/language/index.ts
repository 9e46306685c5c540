/** What the language feature offers the rest of the app; everything else in the folder is its own. */
export { NO_CONVERT_ATTRIBUTE } from './page-converter.ts';
export { LanguageToggle } from './language-toggle.tsx';
export { loadConverter } from './opencc-loader.ts';
export type { TextConverter } from './page-converter.ts';
