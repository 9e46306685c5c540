import type { Db } from '../../db/database.ts';

/** A page in the full-text index with where it lies in its book. */
export interface IndexedPageRow {
  page_id: number;
  book_id: number;
  volume_id: number;
  /** The volume's place in its book and the page's in its volume: book order. */
  volume_sort: number;
  seq: number;
  text: string;
}

/** What full-text results show, filter and sort by of a book. */
export interface BookFactsRow {
  id: number;
  title: string;
  author: string | null;
  class_code: string | null;
  publish_dynasty: string | null;
  coverage_dynasty: string | null;
  is_visible: number;
  audit_status: string;
}

/** Statements bound at once at most (SQLite's limit of bound variables is far above). */
const SLICE = 500;

/** The rows full-text search reads beyond the index: page texts with their order, books' facts. */
export class SearchRepository {
  constructor(private readonly db: Db) {}

  /** The indexed pages asked for (those still in the index), handed on a slice at a time. */
  async eachPageSlice(pageIds: number[], onSlice: (rows: IndexedPageRow[]) => void): Promise<void> {
    for (let i = 0; i < pageIds.length; i += SLICE) {
      const rows = await this.db
        .selectFrom('page_texts as t')
        .innerJoin('pages as p', 'p.id', 't.page_id')
        .innerJoin('volumes as v', 'v.id', 't.volume_id')
        .select(['t.page_id', 't.book_id', 't.volume_id', 'v.sort as volume_sort', 'p.seq', 't.text'])
        .where('t.page_id', 'in', pageIds.slice(i, i + SLICE))
        .execute();
      onSlice(rows.map((r) => ({ ...r, volume_sort: Number(r.volume_sort), seq: Number(r.seq) })));
    }
  }

  /** The texts of the pages asked for. */
  async pageTexts(pageIds: number[]): Promise<Map<number, string>> {
    const texts = new Map<number, string>();
    for (let i = 0; i < pageIds.length; i += SLICE) {
      const rows = await this.db
        .selectFrom('page_texts')
        .select(['page_id', 'text'])
        .where('page_id', 'in', pageIds.slice(i, i + SLICE))
        .execute();
      for (const row of rows) texts.set(row.page_id, row.text);
    }
    return texts;
  }

  async bookFacts(bookIds: number[]): Promise<BookFactsRow[]> {
    const books: BookFactsRow[] = [];
    for (let i = 0; i < bookIds.length; i += SLICE) {
      books.push(
        ...(await this.db
          .selectFrom('books')
          .select([
            'id',
            'title',
            'author',
            'class_code',
            'publish_dynasty',
            'coverage_dynasty',
            'is_visible',
            'audit_status',
          ])
          .where('id', 'in', bookIds.slice(i, i + SLICE))
          .execute()),
      );
    }
    return books;
  }

  /** Classification names by code. */
  async classificationNames(): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('classifications').select(['code', 'name']).execute();
    return new Map(rows.map((r) => [r.code, r.name]));
  }
}
