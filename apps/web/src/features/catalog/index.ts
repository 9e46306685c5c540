/** What the catalog feature offers the rest of the app; everything else in the folder is its own. */
import './catalog.css';
import './catalog-search.css';
export { LOGIN_REDIRECT_DELAY_MS } from './book-access.ts';
export { blankToNull } from './book-form.ts';
export { InBookResults, InBookSearchBox, useInBookSearch } from './components/in-book-search.tsx';
