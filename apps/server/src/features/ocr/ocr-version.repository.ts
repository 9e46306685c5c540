import type { Db, DbOrTx } from '../../db/database.ts';

export interface OcrVersionSummary {
  version: number;
  source: string;
  created_at: string;
  ocr_json: string;
  /** Who saved it (null for the original text and for recognition jobs). */
  login_name: string | null;
  /** What the engine noticed, as JSON (null for versions no engine made). */
  warnings: string | null;
}

/** Every saved OCR result of a page (ocr_versions) and the page's current text (pages.ocr_json). */
export class OcrVersionRepository {
  constructor(private readonly db: Db) {}

  /** A page's versions, newest first. */
  async list(pageId: number, tx: DbOrTx = this.db): Promise<OcrVersionSummary[]> {
    return tx
      .selectFrom('ocr_versions as v')
      .leftJoin('users as u', 'u.id', 'v.created_by')
      .select(['v.version', 'v.source', 'v.created_at', 'v.ocr_json', 'u.login_name', 'v.warnings'])
      .where('v.page_id', '=', pageId)
      .orderBy('v.version', 'desc')
      .execute();
  }

  /** The number of the page's newest version; 0 when it has none. */
  async latest(pageId: number, tx: DbOrTx = this.db): Promise<number> {
    const last = await tx
      .selectFrom('ocr_versions')
      .select((eb) => eb.fn.max<number>('version').as('v'))
      .where('page_id', '=', pageId)
      .executeTakeFirst();
    return Number(last?.v ?? 0);
  }

  /** The JSON text of one version, if it exists. */
  async json(pageId: number, version: number, tx: DbOrTx = this.db): Promise<string | undefined> {
    const row = await tx
      .selectFrom('ocr_versions')
      .select('ocr_json')
      .where('page_id', '=', pageId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row?.ocr_json;
  }

  async add(
    entry: {
      pageId: number;
      version: number;
      source: string;
      json: string;
      createdBy: number | null;
      createdAt: string;
      /** JSON of the engine's warnings, for versions an engine made. */
      warnings?: string | null;
    },
    tx: DbOrTx,
  ): Promise<void> {
    await tx
      .insertInto('ocr_versions')
      .values({
        page_id: entry.pageId,
        version: entry.version,
        source: entry.source,
        ocr_json: entry.json,
        created_by: entry.createdBy,
        created_at: entry.createdAt,
        warnings: entry.warnings ?? null,
      })
      .execute();
  }

  /** The text the page shows (and the full-text index reads). */
  async setPageText(pageId: number, json: string, tx: DbOrTx): Promise<void> {
    await tx.updateTable('pages').set({ ocr_json: json }).where('id', '=', pageId).execute();
  }

  /** The ids of the pages of a page, a volume or a book, in id order. */
  async pageIds(scope: 'page' | 'volume' | 'book', id: number, tx: DbOrTx = this.db): Promise<number[]> {
    const column = scope === 'page' ? 'id' : scope === 'volume' ? 'volume_id' : 'book_id';
    const rows = await tx.selectFrom('pages').select('id').where(column, '=', id).orderBy('id').execute();
    return rows.map((r) => r.id);
  }
}
