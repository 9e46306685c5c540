/** The catalogue's book searches: the console's list, title, advanced and most-read searches, with totals. */
import { OWN_STATUS } from '@guji/shared';
import { sql } from 'kysely';
import type { DbOrTx, Dialect } from '../../db/database.ts';
import { escapeLike, likeText } from '../../db/query.ts';
import type { BookRow } from '../../db/schema.ts';
import { scriptVariants, titleSearchKey } from '../../search/fold.ts';

export interface BookSearch {
  title?: string | undefined;
  /** Classification codes to match (a code and its descendants). */
  classCodes?: string[] | undefined;
  visibleOnly: boolean;
  offset: number;
  limit: number;
}

/** A condition of the advanced book search. */
export interface BookCondition {
  field: 'title' | 'author' | 'call_number' | 'coverage_dynasty';
  value: string;
  /** How it joins the conditions before it; the first one's is ignored. */
  join: 'and' | 'or';
}

/** The console's filter of the catalogue (adminBooks). */
export interface AdminBookQuery {
  text?: string | undefined;
  state?: 'visible' | 'hidden' | 'open' | 'closed' | undefined;
  offset: number;
  limit: number;
}

/** An advanced book search (advancedSearch). */
export interface AdvancedBookSearch {
  conditions: BookCondition[];
  exact: boolean;
  visibleOnly: boolean;
  offset: number;
  limit: number;
}

/**
 * The console's list of the catalogue: the library's books and published own books (hidden ones too),
 * by folded title or call number as substrings and by state, newest first; with the count of all.
 */
export async function adminBooks(
  tx: DbOrTx,
  query: AdminBookQuery,
): Promise<{ rows: BookRow[]; total: number }> {
  let books = tx
    .selectFrom('books')
    .where('is_lonely', '=', 0)
    .where((eb) => eb.or([eb('owner_id', 'is', null), eb('audit_status', '=', OWN_STATUS.published)]));
  const text = query.text;
  if (text) {
    // The folded title (论语 finds 論語) or the call number, as substrings.
    books = books.where((eb) =>
      eb.or([
        likeText('title_search', titleSearchKey(text)),
        ...scriptVariants(text).map((v) => likeText('call_number', v)),
      ]),
    );
  }
  if (query.state === 'visible') books = books.where('is_visible', '=', 1);
  if (query.state === 'hidden') books = books.where('is_visible', '=', 0);
  if (query.state === 'open') books = books.where('is_open', '=', 1);
  if (query.state === 'closed') books = books.where('is_open', '=', 0);
  const [rows, count] = await Promise.all([
    books.selectAll().orderBy('id', 'desc').limit(query.limit).offset(query.offset).execute(),
    books.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Title search (substring, case-insensitive for Latin) with a classification filter, newest first;
 * returns one page of rows and the exact total.
 */
export async function searchBooks(
  tx: DbOrTx,
  dialect: Dialect,
  search: BookSearch,
): Promise<{ rows: BookRow[]; total: number }> {
  let query = tx.selectFrom('books');
  if (search.visibleOnly)
    query = query.where('is_visible', '=', 1).where('audit_status', '=', OWN_STATUS.published);
  const key = search.title ? titleSearchKey(search.title) : '';
  if (key) {
    // Substring of the folded title, so 论语 finds 論語. On SQLite the FTS5 index (one token per
    // character, phrase query) finds the rows; it is exact by itself when every character is a
    // token, otherwise (punctuation in the query) the LIKE checks the rest. PostgreSQL's pg_trgm
    // index serves the LIKE directly.
    const chars = key.split(' ');
    const tokens = chars.filter((ch) => /[\p{L}\p{N}]/u.test(ch));
    if (dialect === 'sqlite' && tokens.length > 0) {
      const phrase = `"${tokens.join(' ').replace(/"/g, '""')}"`;
      query = query.where(sql<boolean>`id in (select rowid from books_fts where books_fts match ${phrase})`);
    }
    if (dialect !== 'sqlite' || tokens.length !== chars.length) {
      query = query.where(likeText('title_search', key));
    }
  }
  if (search.classCodes && search.classCodes.length > 0) {
    // A code and everything under it: `JING` and `JING.…`, as an index range ('/' follows '.').
    const codes = search.classCodes;
    query = query.where((eb) =>
      eb.or(
        codes.flatMap((code) => [
          eb('class_code', '=', code),
          eb.and([eb('class_code', '>', `${code}.`), eb('class_code', '<', `${code}/`)]),
        ]),
      ),
    );
  }
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'asc').limit(search.limit).offset(search.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Advanced book search: conditions joined left to right ((a AND b) OR c …), each a substring (fuzzy)
 * or the whole field (exact); titles match folded (简/繁 and variants alike), other fields as written,
 * Latin letters in any case. Empty conditions are skipped. Oldest first, exact total.
 */
export async function advancedSearch(
  tx: DbOrTx,
  search: AdvancedBookSearch,
): Promise<{ rows: BookRow[]; total: number }> {
  const conditions = search.conditions.filter((c) => c.value.trim() !== '');
  let query = tx.selectFrom('books');
  if (search.visibleOnly)
    query = query.where('is_visible', '=', 1).where('audit_status', '=', OWN_STATUS.published);
  if (conditions.length > 0) {
    query = query.where((eb) => {
      const one = (c: BookCondition) => {
        if (c.field === 'title') {
          const key = titleSearchKey(c.value);
          return search.exact ? eb('title_search', '=', key) : likeText('title_search', key);
        }
        // Call numbers and the other fields in either script (DEMO-经-004 or DEMO-經-004).
        const values = scriptVariants(c.value.trim().toLowerCase());
        return eb.or(
          values.map((value) =>
            search.exact
              ? eb(eb.fn('lower', [eb.ref(c.field)]), '=', value)
              : sql<boolean>`lower(${sql.ref(c.field)}) like ${`%${escapeLike(value)}%`} escape '\\'`,
          ),
        );
      };
      let expression = one(conditions[0]!);
      for (const c of conditions.slice(1)) {
        expression = c.join === 'or' ? eb.or([expression, one(c)]) : eb.and([expression, one(c)]);
      }
      return expression;
    });
  }
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'asc').limit(search.limit).offset(search.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The most-read visible books that have at least one volume. */
export async function hotBooks(
  tx: DbOrTx,
  offset: number,
  limit: number,
): Promise<{ rows: BookRow[]; total: number }> {
  const base = tx
    .selectFrom('books')
    .where('is_visible', '=', 1)
    .where('audit_status', '=', OWN_STATUS.published)
    .where((eb) =>
      eb.exists(eb.selectFrom('volumes').select('volumes.id').whereRef('volumes.book_id', '=', 'books.id')),
    );
  const [rows, count] = await Promise.all([
    base
      .selectAll('books')
      .orderBy('view_count', 'desc')
      .orderBy('id', 'asc')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
