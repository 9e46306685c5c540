import { MSG, type OwnBook, OWN_STATUS } from '@guji/shared';
import type { Transact } from '../../db/query.ts';
import type { OwnBookRepository } from './own-book.repository.ts';
import { nowIso } from '../../db/database.ts';
import { conflict, forbidden } from '../../errors.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FullTextService } from '../search/full-text.service.ts';
import type { OwnAccess } from './own-access.ts';
import type { Auditor } from '../../audit/auditor.ts';

const SELF_REVIEW = () => forbidden(MSG.ownSelfReview, 'OWN_SELF_REVIEW');

/** What OwnReviewService is built from (wiring/). */
export interface OwnReviewDeps {
  ownBooks: OwnBookRepository;
  catalog: CatalogRepository;
  access: OwnAccess;
  auditor: Auditor;
  transact: Transact;
  fullText: FullTextService;
  clock: Clock;
}

/**
 * Publication review of own books (spec §4): the queue by state, approval (public and searchable),
 * refusal with a reason, and staff withdrawing a public one. Nobody reviews a book of their own. Each
 * decision is one transaction with its audit record.
 */
export class OwnReviewService {
  private readonly ownBooks: OwnBookRepository;
  private readonly catalog: CatalogRepository;
  private readonly access: OwnAccess;
  private readonly auditor: Auditor;
  private readonly transact: Transact;
  private readonly fullText: FullTextService;
  private readonly clock: Clock;

  constructor(deps: OwnReviewDeps) {
    this.ownBooks = deps.ownBooks;
    this.catalog = deps.catalog;
    this.access = deps.access;
    this.auditor = deps.auditor;
    this.transact = deps.transact;
    this.fullText = deps.fullText;
    this.clock = deps.clock;
  }

  async queue(status: string): Promise<OwnBook[]> {
    const rows = await this.ownBooks.inState(status, 200);
    return this.access.toOwnBooks(rows, true);
  }

  /** Refuses a reviewer's decision on their own book (403), as with reservations. */
  private async notOwnReview(reviewerId: number, bookId: number): Promise<void> {
    const book = await this.catalog.findBook(bookId);
    if (book && book.owner_id === reviewerId) throw SELF_REVIEW();
  }

  /**
   * Approval makes the book public in the catalogue and searchable, with the call number and class the
   * reviewer gave (the route has checked the class against the dictionary).
   */
  async approve(
    bookId: number,
    reviewerId: number,
    record: { callNumber?: string | null | undefined; classCode?: string | null | undefined } = {},
  ): Promise<void> {
    await this.notOwnReview(reviewerId, bookId);
    await this.transact(async (tx) => {
      const approved = await this.ownBooks.review(
        bookId,
        '1',
        {
          audit_status: OWN_STATUS.published,
          is_visible: 1,
          refuse_reason: null,
          ...(record.callNumber !== undefined ? { call_number: record.callNumber } : {}),
          ...(record.classCode !== undefined ? { class_code: record.classCode } : {}),
          updated_at: nowIso(this.clock.now()),
        },
        tx,
      );
      if (!approved) throw conflict('OWN_STATE', MSG.reservationNotReviewable);
      await this.fullText.indexBook(bookId, tx);
      await this.auditor.record(reviewerId, 'ownbook.approve', `book:${bookId}`, null, record, tx);
    });
  }

  async refuse(bookId: number, reason: string, reviewerId: number): Promise<void> {
    await this.notOwnReview(reviewerId, bookId);
    await this.transact(async (tx) => {
      const refused = await this.ownBooks.review(
        bookId,
        '1',
        { audit_status: OWN_STATUS.refused, refuse_reason: reason, updated_at: nowIso(this.clock.now()) },
        tx,
      );
      if (!refused) throw conflict('OWN_STATE', MSG.reservationNotReviewable);
      await this.auditor.record(reviewerId, 'ownbook.refuse', `book:${bookId}`, null, { reason }, tx);
    });
  }

  /** Staff withdraw a public own book: out of the catalogue and the index, refused with the reason. */
  async withdraw(bookId: number, reason: string, reviewerId: number): Promise<void> {
    await this.notOwnReview(reviewerId, bookId);
    await this.transact(async (tx) => {
      const withdrawn = await this.ownBooks.review(
        bookId,
        '2',
        {
          audit_status: OWN_STATUS.refused,
          is_visible: 0,
          refuse_reason: reason,
          updated_at: nowIso(this.clock.now()),
        },
        tx,
      );
      if (!withdrawn) throw conflict('OWN_STATE', MSG.reservationNotReviewable);
      await this.fullText.removeBook(bookId, tx);
      await this.auditor.record(reviewerId, 'ownbook.withdraw', `book:${bookId}`, null, { reason }, tx);
    });
  }
}
