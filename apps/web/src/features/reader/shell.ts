/** The reader for the application's shell: its page (which carries OpenSeadragon) and its early start. */
import { lazy } from 'react';
import { loadReaderPage } from './load-reader.ts';

export { startReaderEarly } from './load-reader.ts';

// The book page preloads it (load-reader.ts).
export const ReaderPage = lazy(() => loadReaderPage().then((m) => ({ default: m.ReaderPage })));
