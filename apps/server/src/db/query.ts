import { sql } from 'kysely';
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
  (db: Db): Transact =>
  (work) =>
    db.transaction().execute(work);
