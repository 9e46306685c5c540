import {
  type Access,
  type AdvancedSearchRequest,
  type BookDetail,
  type BookPage,
  type BookSearchQuery,
  type BookSummary,
  type Classification,
  type DirectoryNode,
  type PageImage,
  type PageOcr,
  type ReaderData,
  type UpdateBookRequest,
  type Volume,
  MSG,
  OWN_STATUS,
} from '@guji/shared';
import type { BookRow, PageRow } from '../../db/schema.ts';
import type { Transact } from '../../db/query.ts';
import type { Auditor } from '../../audit/auditor.ts';
import type { ClassificationRepository } from './classification.repository.ts';
import type { CatalogRepository } from './catalog.repository.ts';
import type { VolumeWithCount } from './volume.repository.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import type { FullTextService } from '../search/full-text.service.ts';
import { parseOcr } from '../../ocr/parse.ts';
import { decideAccess, isCatalogStaff, isPublicBook, type AccessBook } from './access.ts';
import type { Clock } from '../../lib/clock.ts';
import { THUMBNAIL_REQUEST } from '../../iiif/addresses.ts';

import type { Viewer } from '../../lib/viewer.ts';

export const iiifImageBase = (pageId: number): string => `/iiif/3/${pageId}`;
export const thumbnailUrl = (pageId: number): string =>
  `${iiifImageBase(pageId)}/${THUMBNAIL_REQUEST.join('/')}`;
export const manifestUrl = (volumeId: number): string =>
  `/iiif/presentation/volumes/${volumeId}/manifest.json`;
export const collectionUrl = (bookId: number): string => `/iiif/presentation/books/${bookId}/collection.json`;

const NO_DATA = () => notFound(MSG.noData, 'NO_DATA');

/** Catalogue reading: classification tree, hot list, title search, book detail, volumes, reader data. */
export class CatalogService {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly classes: ClassificationRepository,
    private readonly clock: Clock,
    private readonly auditor: Auditor,
    private readonly transact: Transact,
    private readonly fullText?: FullTextService,
  ) {}

  async classificationTree(): Promise<Classification[]> {
    const rows = await this.classes.list();
    const nodes = new Map<number, Classification>();
    for (const row of rows)
      nodes.set(row.id, {
        dictionaryId: row.id,
        dictionaryName: row.name,
        dictionaryValue: row.code,
        children: [],
      });
    const roots: Classification[] = [];
    for (const row of rows) {
      const node = nodes.get(row.id)!;
      const parent = row.parent_id === null ? undefined : nodes.get(row.parent_id);
      (parent ? parent.children : roots).push(node);
    }
    return roots;
  }

  async hot(pageNum: number, pageSize: number): Promise<BookPage> {
    const { rows, total } = await this.catalog.hotBooks((pageNum - 1) * pageSize, pageSize);
    return this.page(rows, total, pageNum, pageSize);
  }

  async search(query: BookSearchQuery, viewer: Viewer): Promise<BookPage> {
    const { rows, total } = await this.catalog.searchBooks({
      title: query.title || undefined,
      classCodes: query.classCode ? [query.classCode] : undefined,
      visibleOnly: !isCatalogStaff(viewer.roles),
      offset: (query.pageNum - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return this.page(rows, total, query.pageNum, query.pageSize);
  }

  /** Advanced book search (spec §2 book mode): rows of field + text joined by AND/OR, fuzzy or exact. */
  async advancedSearch(request: AdvancedSearchRequest, viewer: Viewer): Promise<BookPage> {
    const FIELDS = {
      title: 'title',
      author: 'author',
      callNumber: 'call_number',
      edition: 'coverage_dynasty',
    } as const;
    const { rows, total } = await this.catalog.advancedSearch({
      conditions: request.rows.map((row) => ({
        field: FIELDS[row.key],
        value: row.value,
        join: row.type === 1 ? 'or' : 'and',
      })),
      exact: request.matchType === 0,
      visibleOnly: !isCatalogStaff(viewer.roles),
      offset: (request.pageNum - 1) * request.pageSize,
      limit: request.pageSize,
    });
    return this.page(rows, total, request.pageNum, request.pageSize);
  }

  async detail(bookId: number, viewer: Viewer): Promise<BookDetail> {
    const book = await this.catalog.findBook(bookId);
    const staff = isCatalogStaff(viewer.roles);
    if (!book || (!staff && !this.published(book) && !isOwner(book, viewer))) throw NO_DATA();
    const volumes = await this.catalog.listVolumes(bookId);
    const access = await this.access(book, volumes.length, viewer);
    const cover = await this.catalog.coverPage(bookId);
    const manifest =
      volumes.length === 1 ? manifestUrl(volumes[0]!.id) : volumes.length > 1 ? collectionUrl(bookId) : null;
    return {
      ...this.summary(book, cover?.id),
      isVisible: book.is_visible === 1,
      actualVolume: book.actual_volume,
      bookNumber: book.book_number,
      volumeCount: volumes.length,
      editionType: book.edition_type,
      notes: book.notes,
      iiifManifestUrl: manifest,
      access,
      canEdit: staff,
    };
  }

  async volumes(bookId: number, viewer: Viewer): Promise<Volume[]> {
    const book = await this.catalog.findBook(bookId);
    if (!book || (!isCatalogStaff(viewer.roles) && !this.published(book) && !isOwner(book, viewer)))
      throw NO_DATA();
    return (await this.catalog.listVolumes(bookId)).map(toVolume);
  }

  /** A page's recognised text (spec: image detail's ocrInfo), for whoever may read the book. */
  async pageOcr(pageId: number, viewer: Viewer): Promise<PageOcr> {
    const page = await this.catalog.findPage(pageId);
    const book = page ? await this.catalog.findBook(page.book_id) : undefined;
    if (!page || !book) throw NO_DATA();
    const access = await this.access(book, await this.catalog.countVolumes(book.id), viewer);
    if (!access.canRead) throw accessError(access);
    return { imageId: page.id, ocr: parseOcr(page.ocr_json) ?? null };
  }

  async directory(volumeId: number, viewer: Viewer): Promise<DirectoryNode[]> {
    const volume = await this.catalog.findVolume(volumeId);
    if (!volume) throw NO_DATA();
    await this.volumes(volume.book_id, viewer);
    return this.directoryTree(volumeId);
  }

  /**
   * The reader's data for one volume, after the access rule; records a view and, for a signed-in
   * reader, a footprint.
   */
  async reader(bookId: number, volumeId: number | undefined, viewer: Viewer): Promise<ReaderData> {
    const book = await this.catalog.findBook(bookId);
    const volumes = book ? await this.catalog.listVolumes(bookId) : [];
    const access = await this.access(book, volumes.length, viewer);
    if (!access.canRead) throw accessError(access);
    const volume = volumeId === undefined ? volumes[0] : volumes.find((v) => v.id === volumeId);
    if (!book || !volume) throw NO_DATA();
    const pages = await this.catalog.listPages(volume.id);
    await this.catalog.incrementViews(book.id);
    if (viewer.userId !== null) await this.catalog.addFootprint(viewer.userId, book.id, volume.id);
    return {
      book: {
        catalogId: book.id,
        title: book.title,
        callNumber: book.call_number,
        author: book.author,
        publishDynasty: book.publish_dynasty,
        coverageDynasty: book.coverage_dynasty,
      },
      volumes: volumes.map(toVolume),
      volume: toVolume(volume),
      directory: await this.directoryTree(volume.id),
      pages: pages.map(toPageImage),
    };
  }

  /** A page the viewer may read (DESIGN.md §7), with its book; throws the reader's refusal otherwise. */
  async readablePage(pageId: number, viewer: Viewer): Promise<{ page: PageRow; book: BookRow }> {
    const page = await this.catalog.findPage(pageId);
    const book = page ? await this.catalog.findBook(page.book_id) : undefined;
    if (!page || !book) throw NO_DATA();
    const access = await this.access(book, await this.catalog.countVolumes(book.id), viewer);
    if (!access.canRead) throw accessError(access);
    return { page, book };
  }

  /** The access decision for a book and viewer (DESIGN.md §7). */
  async access(book: BookRow | undefined, volumeCount: number, viewer: Viewer): Promise<Access> {
    const hasPrivilege =
      book !== undefined && viewer.userId !== null
        ? await this.catalog.hasActivePrivilege(viewer.userId, book.id, this.clock.now().toISOString())
        : false;
    return decideAccess(book ? toAccessBook(book, volumeCount) : undefined, { ...viewer, hasPrivilege });
  }

  /**
   * Whether anyone may view the book, whoever asks (visible, published, open to online reading, with a
   * volume): the IIIF image routes then read no session.
   */
  async isPublic(book: BookRow): Promise<boolean> {
    return publicWith(book, await this.catalog.countVolumes(book.id));
  }

  /**
   * Whether a viewer may have the images and manifests of a book: public books to anyone (other
   * libraries' IIIF viewers), others by the access rule.
   */
  async mayView(
    book: BookRow,
    viewer: Viewer,
  ): Promise<{ allowed: boolean; isPublic: boolean; access: Access }> {
    // Runs on every tile: a count, not the volume list with its page counts.
    const volumeCount = await this.catalog.countVolumes(book.id);
    const isPublic = publicWith(book, volumeCount);
    const access = await this.access(book, volumeCount, viewer);
    return { allowed: isPublic || access.canRead, isPublic, access };
  }

  /**
   * Catalogue staff change a book's fields and switches: one transaction with its audit record, which
   * keeps the changed fields before and after (as the book's detail shows them).
   */
  async update(bookId: number, changes: UpdateBookRequest, viewer: Viewer): Promise<BookDetail> {
    if (!isCatalogStaff(viewer.roles)) throw forbidden();
    await this.transact(async (tx) => {
      const book = await this.catalog.findBook(bookId, tx);
      if (!book) throw NO_DATA();
      await this.catalog.updateBook(
        bookId,
        {
          ...(changes.title !== undefined ? { title: changes.title } : {}),
          ...(changes.author !== undefined ? { author: changes.author || null } : {}),
          ...(changes.publishDynasty !== undefined
            ? { publish_dynasty: changes.publishDynasty || null }
            : {}),
          ...(changes.coverageDynasty !== undefined
            ? { coverage_dynasty: changes.coverageDynasty || null }
            : {}),
          ...(changes.callNumber !== undefined ? { call_number: changes.callNumber || null } : {}),
          ...(changes.classCode !== undefined ? { class_code: changes.classCode || null } : {}),
          ...(changes.editionType !== undefined ? { edition_type: changes.editionType || null } : {}),
          ...(changes.notes !== undefined ? { notes: changes.notes || null } : {}),
          ...(changes.actualVolume !== undefined ? { actual_volume: changes.actualVolume } : {}),
          ...(changes.bookNumber !== undefined ? { book_number: changes.bookNumber } : {}),
          ...(changes.isVisible !== undefined ? { is_visible: changes.isVisible ? 1 : 0 } : {}),
          ...(changes.isOpen !== undefined ? { is_open: changes.isOpen ? 1 : 0 } : {}),
        },
        tx,
      );
      // A hidden book's pages leave the full-text index; shown again, they come back.
      if (changes.isVisible !== undefined) await this.fullText?.indexBook(bookId, tx);
      const updated = (await this.catalog.findBook(bookId, tx))!;
      const fields = Object.keys(changes) as Array<keyof UpdateBookRequest>;
      const pick = (row: BookRow) => {
        const values = editableFields(row);
        return Object.fromEntries(fields.map((k) => [k, values[k]]));
      };
      await this.auditor.record(
        viewer.userId,
        'book.update',
        `book:${bookId}`,
        pick(book),
        pick(updated),
        tx,
      );
    });
    return this.detail(bookId, viewer);
  }

  private async directoryTree(volumeId: number): Promise<DirectoryNode[]> {
    const rows = await this.catalog.listDirectory(volumeId);
    const nodes = new Map<number, DirectoryNode>();
    for (const row of rows) {
      nodes.set(row.id, {
        directoryId: row.id,
        name: row.name,
        imageId: row.page_id,
        pageNumber: row.page_seq,
        children: [],
      });
    }
    const roots: DirectoryNode[] = [];
    for (const row of rows) {
      const parent = row.parent_id === null ? undefined : nodes.get(row.parent_id);
      (parent ? parent.children : roots).push(nodes.get(row.id)!);
    }
    return roots;
  }

  private published(book: BookRow): boolean {
    return book.is_visible === 1 && book.audit_status === OWN_STATUS.published;
  }

  private async page(rows: BookRow[], total: number, pageNum: number, pageSize: number): Promise<BookPage> {
    const covers = await this.catalog.coverPageIds(rows.map((r) => r.id));
    return {
      pageNum,
      pageSize,
      total,
      pages: Math.ceil(total / pageSize),
      records: rows.map((row) => this.summary(row, covers.get(row.id))),
    };
  }

  private summary(book: BookRow, coverPageId: number | undefined): BookSummary {
    return {
      catalogId: book.id,
      title: book.title,
      author: book.author,
      publishDynasty: book.publish_dynasty,
      coverageDynasty: book.coverage_dynasty,
      callNumber: book.call_number,
      classCode: book.class_code,
      coverUrl: coverPageId === undefined ? null : thumbnailUrl(coverPageId),
      isOpen: book.is_open === 1,
      viewCount: book.view_count,
    };
  }
}

/** A book's fields that catalogue staff edit, as its detail shows them (the audit log's before and after). */
function editableFields(book: BookRow): Required<UpdateBookRequest> {
  return {
    title: book.title,
    author: book.author,
    publishDynasty: book.publish_dynasty,
    coverageDynasty: book.coverage_dynasty,
    callNumber: book.call_number,
    classCode: book.class_code,
    editionType: book.edition_type,
    notes: book.notes,
    actualVolume: book.actual_volume,
    bookNumber: book.book_number,
    isVisible: book.is_visible === 1,
    isOpen: book.is_open === 1,
  };
}

/** Whether the viewer added this book (own books); never true for a visitor or a library book. */
export const isOwner = (book: BookRow, viewer: Viewer): boolean =>
  viewer.userId !== null && book.owner_id === viewer.userId;

export function toAccessBook(book: BookRow, volumeCount: number): AccessBook {
  return {
    isVisible: book.is_visible === 1,
    isOpen: book.is_open === 1,
    auditStatus: book.audit_status,
    ownerId: book.owner_id,
    volumeCount,
  };
}

/** The HTTP error for a refused access decision. */
export function accessError(access: Access): AppError {
  switch (access.reason) {
    case 'login':
      return new AppError(401, 'LOGIN_REQUIRED', access.message);
    case 'noData':
      return new AppError(404, 'NO_DATA', access.message);
    case 'readingRoom':
    case 'ok':
      return new AppError(403, 'READING_ROOM_ONLY', access.message);
  }
}

function toVolume(volume: VolumeWithCount): Volume {
  return {
    fascicleId: volume.id,
    catalogId: volume.book_id,
    name: volume.name,
    introduction: volume.introduction,
    imageCount: volume.image_count,
    manifestUrl: manifestUrl(volume.id),
  };
}

export function toPageImage(page: PageRow): PageImage {
  return {
    imageId: page.id,
    pageNumber: page.seq,
    name: page.name,
    width: page.width,
    height: page.height,
    iiifBase: iiifImageBase(page.id),
    thumbnailUrl: thumbnailUrl(page.id),
  };
}

/** Whether a book with this many volumes is open to anyone (the access rule's public case). */
function publicWith(book: BookRow, volumeCount: number): boolean {
  return isPublicBook(toAccessBook(book, volumeCount)) && volumeCount > 0;
}
