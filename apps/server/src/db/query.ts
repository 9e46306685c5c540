import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db, DbOrTx } from './database.ts';

/** Escapes LIKE's wildcards (% and _) and the escape character itself, for `ESCAPE '\'`. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * `column LIKE pattern ESCAPE '\'` with the text's own % and _ taken literally (SQLite has no default
 * escape character, so the ESCAPE clause is needed there). `contains` or `prefix` of the text.
 */
export const likeText = (column: string, text: string, mode: 'contains' | 'prefix' = 'contains') =>
  sql<boolean>`${sql.ref(column)} like ${mode === 'contains' ? `%${escapeLike(text)}%` : `${escapeLike(text)}%`} escape '\\'`;

/**
 * Runs `work` in one transaction and hands it the transaction to pass to repository methods: how a
 * service makes several repository calls one change (and writes the audit record inside it) without
 * holding the database itself.
 */
export type Transact = <T>(work: (tx: DbOrTx) => Promise<T>) => Promise<T>;

export const transactor =
  (db: Db, ended: () => void = () => undefined): Transact =>
  (work) =>
    db.transaction().execute(work).finally(ended);

/** A select that can be cut to a page: what `countedPage`'s `rows` gives back (joins may change its tables). */
interface Pageable<O> {
  limit(limit: number): { offset(offset: number): { execute(): Promise<O[]> } };
}

/**
 * One page of a list and the size of the whole list, the way every paged screen asks for it: `base` is
 * the list (its table, the joins that filter it, its conditions) and is counted as it stands; `rows` adds
 * what each row shows and the order, and the page is cut from it with LIMIT and OFFSET.
 */
export async function countedPage<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, object>,
  rows: (base: SelectQueryBuilder<DB, TB, object>) => Pageable<O>,
  window: { offset: number; limit: number },
): Promise<{ rows: O[]; total: number }> {
  // A generic builder loses the selection's type: the count is named once here.
  const { n } = await base
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .$castTo<{ n: number }>()
    .executeTakeFirstOrThrow();
  const list = await rows(base).limit(window.limit).offset(window.offset).execute();
  return { rows: list, total: Number(n) };
}
