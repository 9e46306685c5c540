/** The language feature's provider for the application's shell. */
export { LanguageProvider } from './language-provider.tsx';
