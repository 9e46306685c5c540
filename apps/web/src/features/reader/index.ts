/** What the reader feature offers the rest of the app; everything else in the folder is its own. */
import './reader-side.css';
import './reader.css';
import './reader-tools.css';
import './text-pane.css';
export { confidenceClass } from './components/ocr-text-pane.tsx';
export { flattenDirectory, toTreeData } from './directory.ts';
export { preloadReader } from './load-reader.ts';
export { bookCitationOf } from './citation.ts';
export { citationExports, type CitationExport } from './citation-exports.ts';
export { useCitationTags } from './citation-tags.ts';
