import { OcrWarning, pageText, type OcrJson, type OcrVersionList, type SavedOcr } from '@guji/shared';
import type { Transact } from '../../db/query.ts';
import { nowIso, type DbOrTx } from '../../db/database.ts';
import type { BookRow, PageRow } from '../../db/schema.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../errors.ts';
import { OcrFormatError, readOcrFile, toAlto, toHocr, toText, type OcrFormat } from '../../ocr/formats.ts';
import { parseOcr } from '../../ocr/parse.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { isCatalogStaff } from '../catalog/access.ts';
import { isOwner, type CatalogService } from '../catalog/catalog.service.ts';
import type { Viewer } from '../../lib/viewer.ts';
import type { FullTextService } from '../search/full-text.service.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { assertChangeable } from '../own-books/own-book.service.ts';
import type { OcrVersionRepository } from './ocr-version.repository.ts';

const NO_PAGE = () => notFound('图像不存在', 'NOT_FOUND');

/**
 * A page's OCR text over time: every save is a new version (the first save keeps what was there as
 * version 1), the page shows the latest, and the full-text index follows in the same transaction.
 * Proofreading is for catalogue staff and for the owner of an own book (spec §6); exports for anyone
 * who may read the page.
 */
export class OcrService {
  constructor(
    private readonly versionRepo: OcrVersionRepository,
    private readonly transact: Transact,
    private readonly catalog: CatalogRepository,
    private readonly catalogService: CatalogService,
    private readonly fullText: FullTextService,
  ) {}

  async versions(pageId: number, viewer: Viewer): Promise<OcrVersionList> {
    const { page, book } = await this.editable(pageId, viewer, false);
    const [rows, volume] = await Promise.all([
      this.versionRepo.list(pageId),
      this.catalog.findVolume(page.volume_id),
    ]);
    return {
      imageId: pageId,
      place: {
        catalogId: book.id,
        title: book.title,
        fascicleId: page.volume_id,
        volumeName: volume?.name ?? '',
        pageNumber: page.seq,
        pageName: page.name,
      },
      versions: rows.map((row) => {
        const ocr = parseOcr(row.ocr_json);
        return {
          version: row.version,
          source: row.source,
          createdBy: row.login_name ?? null,
          createdAt: row.created_at,
          characters: ocr ? [...pageText(ocr)].length : 0,
          warnings: parseWarnings(row.warnings),
        };
      }),
    };
  }

  /** The number of the page's newest saved version (0 while it has none). */
  async latestVersion(pageId: number): Promise<number> {
    return this.versionRepo.latest(pageId);
  }

  /** Saves a corrected (or imported) result as the page's newest version. */
  async save(pageId: number, ocr: OcrJson, viewer: Viewer, source = 'proofread'): Promise<SavedOcr> {
    const { page } = await this.editable(pageId, viewer);
    return this.storeVersion(page, ocr, source, viewer.userId);
  }

  /**
   * Stores a result as the page's newest version (OCR jobs call this directly). `within` runs in the
   * transaction that adds it, with its number: an OCR job marks itself done there, so the version and the
   * job's completion commit together (a worker killed after saving never leaves a job that saves again).
   */
  async saveVersion(
    pageId: number,
    ocr: OcrJson,
    source: string,
    userId: number | null,
    within?: (tx: DbOrTx, version: number) => Promise<void>,
    /** What the engine noticed about its result (a recognition job's). */
    warnings: OcrWarning[] = [],
  ): Promise<SavedOcr> {
    const page = await this.catalog.findPage(pageId);
    if (!page) throw NO_PAGE();
    return this.storeVersion(page, ocr, source, userId, within, warnings);
  }

  private async storeVersion(
    page: PageRow,
    ocr: OcrJson,
    source: string,
    userId: number | null,
    within?: (tx: DbOrTx, version: number) => Promise<void>,
    warnings: OcrWarning[] = [],
  ): Promise<SavedOcr> {
    const pageId = page.id;
    if (ocr.imginfo.width !== page.width || ocr.imginfo.height !== page.height) {
      throw badRequest(
        'OCR_SIZE_MISMATCH',
        `识别结果的图像尺寸（${ocr.imginfo.width}×${ocr.imginfo.height}）与本页（${page.width}×${page.height}）不符`,
      );
    }
    const version = await this.transact(async (tx) => {
      let next = (await this.versionRepo.latest(pageId, tx)) + 1;
      const now = nowIso();
      if (next === 1 && page.ocr_json) {
        // What the page had before its first save stays as version 1.
        await this.versionRepo.add(
          { pageId, version: 1, source: 'original', json: page.ocr_json, createdBy: null, createdAt: now },
          tx,
        );
        next = 2;
      }
      const json = JSON.stringify(ocr);
      await this.versionRepo.add(
        {
          pageId,
          version: next,
          source,
          json,
          createdBy: userId,
          createdAt: now,
          warnings: warnings.length > 0 ? JSON.stringify(warnings) : null,
        },
        tx,
      );
      await this.versionRepo.setPageText(pageId, json, tx);
      await this.fullText.indexPage(pageId, tx);
      await within?.(tx, next);
      return next;
    });
    return { imageId: pageId, version, ocr };
  }

  /**
   * Queues OCR for a page, a volume or a book (catalogue staff or the owner): one job per page, so
   * progress and failures are per page; a page already queued is not queued twice.
   */
  async run(
    scope: 'page' | 'volume' | 'book',
    id: number,
    viewer: Viewer,
    queue: JobQueue,
  ): Promise<{ queued: number }> {
    if (viewer.userId === null) throw unauthorized();
    const pageIds = await this.versionRepo.pageIds(scope, id);
    if (pageIds.length === 0) throw notFound('没有可识别的图像', 'NOT_FOUND');
    await this.editable(pageIds[0]!, viewer);
    // All pages or none: a failure half-way leaves nothing queued.
    await this.transact(async (tx) => {
      for (const pageId of pageIds)
        await queue.enqueue('ocr.page', { pageId }, { dedupeKey: `ocr:${pageId}`, tx });
    });
    return { queued: pageIds.length };
  }

  /** Makes an earlier version the page's text again (as a new version, so nothing is lost). */
  async restore(pageId: number, version: number, viewer: Viewer): Promise<SavedOcr> {
    const { page } = await this.editable(pageId, viewer);
    const ocr = parseOcr((await this.versionRepo.json(pageId, version)) ?? null);
    if (!ocr) throw notFound(`版本 ${version} 不存在`, 'NOT_FOUND');
    return this.storeVersion(page, ocr, `restore:${version}`, viewer.userId);
  }

  async importText(
    pageId: number,
    format: 'alto' | 'hocr',
    content: string,
    viewer: Viewer,
  ): Promise<SavedOcr> {
    // Who may change the page is settled before the file is read: nobody else costs a parse.
    const { page } = await this.editable(pageId, viewer);
    let ocr: OcrJson;
    try {
      ocr = await readOcrFile(format, content, { pageSize: { width: page.width, height: page.height } });
    } catch (error) {
      if (error instanceof OcrFormatError) throw badRequest('OCR_IMPORT_INVALID', error.message);
      throw error;
    }
    return this.save(pageId, ocr, viewer, `import:${format}`);
  }

  /** The page's text as ALTO, hOCR or plain text, for whoever may read the page. */
  async exportText(
    pageId: number,
    format: OcrFormat,
    viewer: Viewer,
  ): Promise<{ body: string; contentType: string; fileName: string }> {
    const { ocr } = await this.catalogService.pageOcr(pageId, viewer);
    if (!ocr) throw notFound('本页暂无识别文字', 'NO_OCR');
    const base = `page-${pageId}`;
    switch (format) {
      case 'alto':
        return {
          body: toAlto(ocr, `${base}.jpg`),
          contentType: 'application/xml; charset=utf-8',
          fileName: `${base}.alto.xml`,
        };
      case 'hocr':
        return {
          body: toHocr(ocr, `${base}.jpg`),
          contentType: 'text/html; charset=utf-8',
          fileName: `${base}.hocr.html`,
        };
      case 'txt':
        return { body: toText(ocr), contentType: 'text/plain; charset=utf-8', fileName: `${base}.txt` };
    }
  }

  /** The page and its book, when the viewer may proofread it: catalogue staff, or the book's owner. */
  private async editable(
    pageId: number,
    viewer: Viewer,
    change = true,
  ): Promise<{ page: PageRow; book: BookRow }> {
    if (viewer.userId === null) throw unauthorized();
    const page = await this.catalog.findPage(pageId);
    const book = page ? await this.catalog.findBook(page.book_id) : undefined;
    if (!page || !book) throw NO_PAGE();
    const staff = isCatalogStaff(viewer.roles);
    if (!staff && !isOwner(book, viewer)) throw forbidden('只有编目人员或本书的上传者可以校对文字');
    // An owner's book under review or published is frozen for them (OwnBookService rule).
    if (change && !staff) assertChangeable(book);
    return { page, book };
  }
}

/** The stored warnings of a version (none where the column is empty or unreadable). */
function parseWarnings(json: string | null): OcrWarning[] {
  if (!json) return [];
  try {
    const parsed = OcrWarning.array().safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
