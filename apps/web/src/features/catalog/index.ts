/** What the catalog feature offers the rest of the app; everything else in the folder is its own. */
import './catalog.css';
import './catalog-search.css';
export { LOGIN_REDIRECT_DELAY_MS } from './book-access.ts';
export { blankToNull, toBookFields, toUpdateRequest, type BookFields } from './book-form.ts';
export { BookFieldItems } from './components/book-fields.tsx';
export { classNodes, type ClassNode } from './class-tree.tsx';
export { InBookResults, InBookSearchBox } from './components/in-book-search.tsx';
export { useInBookSearch } from './queries.ts';
