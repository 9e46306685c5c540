import type { Db } from '../../db/database.ts';
import type { BookRow, ClassificationRow } from '../../db/schema.ts';

/** A record as /oai shows it: the tracking row, and the book while it is public. */
export interface OaiRecordRow {
  bookId: number;
  datestamp: string;
  /** Hidden, withdrawn or deleted since it was shown; then `book` is undefined. */
  deleted: boolean;
  classCode: string | null;
  book: BookRow | undefined;
}

export interface OaiSelection {
  /** Full UTC datestamps, inclusive. */
  from: string | undefined;
  until: string | undefined;
  /** A classification code: its books and those of the classes below it. */
  classCode: string | undefined;
}

/**
 * The records of OAI-PMH (oai_records, kept by the triggers of migration 0022) with their books. Lists go
 * in book id order, so a resumption token is the last id of a page and a page costs an index range.
 */
export class OaiRepository {
  constructor(private readonly db: Db) {}

  private selected(selection: OaiSelection) {
    let query = this.db.selectFrom('oai_records');
    if (selection.from) query = query.where('oai_records.datestamp', '>=', selection.from);
    if (selection.until) query = query.where('oai_records.datestamp', '<=', selection.until);
    const code = selection.classCode;
    // The class and every class below it: codes from `CODE.` up to `CODE/` ('/' follows '.').
    if (code)
      query = query.where((eb) =>
        eb.or([
          eb('oai_records.class_code', '=', code),
          eb.and([
            eb('oai_records.class_code', '>', `${code}.`),
            eb('oai_records.class_code', '<', `${code}/`),
          ]),
        ]),
      );
    return query;
  }

  async count(selection: OaiSelection): Promise<number> {
    const row = await this.selected(selection)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Up to `limit` records of the selection with book ids after `after`, in id order. */
  async list(selection: OaiSelection, after: number, limit: number): Promise<OaiRecordRow[]> {
    const rows = await this.selected(selection)
      .selectAll('oai_records')
      .where('oai_records.book_id', '>', after)
      .orderBy('oai_records.book_id')
      .limit(limit)
      .execute();
    const books = await this.books(rows.filter((r) => !r.deleted).map((r) => r.book_id));
    return rows.map((row) => toRecord(row, books.get(row.book_id)));
  }

  async find(bookId: number): Promise<OaiRecordRow | undefined> {
    const row = await this.db
      .selectFrom('oai_records')
      .selectAll()
      .where('book_id', '=', bookId)
      .executeTakeFirst();
    if (!row) return undefined;
    const books = await this.books(row.deleted ? [] : [row.book_id]);
    return toRecord(row, books.get(row.book_id));
  }

  /** The oldest datestamp held, or undefined while no book has ever been public. */
  async earliestDatestamp(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('oai_records')
      .select((eb) => eb.fn.min('datestamp').as('earliest'))
      .executeTakeFirst();
    return row?.earliest ?? undefined;
  }

  async classifications(): Promise<ClassificationRow[]> {
    return this.db.selectFrom('classifications').selectAll().orderBy('sort').orderBy('id').execute();
  }

  /** Each book's volumes (id and name) in reading order. */
  async volumesOf(bookIds: number[]): Promise<Map<number, Array<{ id: number; name: string }>>> {
    const result = new Map<number, Array<{ id: number; name: string }>>();
    if (bookIds.length === 0) return result;
    const rows = await this.db
      .selectFrom('volumes')
      .select(['id', 'name', 'book_id'])
      .where('book_id', 'in', bookIds)
      .orderBy('book_id')
      .orderBy('sort')
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const list = result.get(row.book_id) ?? [];
      list.push({ id: row.id, name: row.name });
      result.set(row.book_id, list);
    }
    return result;
  }

  private async books(ids: number[]): Promise<Map<number, BookRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('books').selectAll().where('id', 'in', ids).execute();
    return new Map(rows.map((book) => [book.id, book]));
  }
}

function toRecord(
  row: { book_id: number; datestamp: string; deleted: number; class_code: string | null },
  book: BookRow | undefined,
): OaiRecordRow {
  // A book the tracking calls public but that is not (never expected: the triggers keep both) is not shown.
  const shown = book !== undefined && book.is_visible === 1 && book.audit_status === '2';
  return {
    bookId: row.book_id,
    datestamp: row.datestamp,
    deleted: Boolean(row.deleted) || !shown,
    classCode: row.class_code,
    book: shown ? book : undefined,
  };
}
