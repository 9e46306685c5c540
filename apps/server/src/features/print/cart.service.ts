import {
  MSG,
  PRINT_PAGE_SIZE,
  PRINT_RANGE_MAX,
  type PrintItem,
  type PrintPrice,
  PAY_STATUS,
  PRINT_STATUS,
} from '@guji/shared';
import { nowIso } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import { badRequest } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { pagedOf, type Paged } from '../../lib/paged.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import type { Viewer } from '../../lib/viewer.ts';
import type { Auditor } from '../../audit/auditor.ts';
import type { DbOrTx } from '../../db/database.ts';
import type { PrintRepositories } from './print.repository.ts';
import { NOT_FOUND, orderIdsOf, toItem, type PrintRules } from './print-rules.ts';

/** What PrintCartService is built from (wiring/). */
export interface PrintCartDeps {
  print: PrintRepositories;
  catalogRepo: CatalogRepository;
  catalog: CatalogService;
  rules: PrintRules;
  auditor: Auditor;
  transact: Transact;
  clock: Clock;
}

/**
 * The price list and the reader's print list (spec §2 Print): pages the reader may read are added at
 * the price of their paper size; unpaid items can be deleted, which settles the orders they were in.
 */
export class PrintCartService {
  private readonly print: PrintRepositories;
  private readonly catalogRepo: CatalogRepository;
  private readonly catalog: CatalogService;
  private readonly rules: PrintRules;
  private readonly auditor: Auditor;
  private readonly transact: Transact;
  private readonly clock: Clock;

  constructor(deps: PrintCartDeps) {
    this.print = deps.print;
    this.catalogRepo = deps.catalogRepo;
    this.catalog = deps.catalog;
    this.rules = deps.rules;
    this.auditor = deps.auditor;
    this.transact = deps.transact;
    this.clock = deps.clock;
  }

  async prices(tx?: DbOrTx): Promise<PrintPrice[]> {
    const rows = await this.print.prices.list(tx);
    return rows.map((r) => ({ paperSize: r.paper_size, label: r.label, priceFen: r.price_fen }));
  }

  /** Replaces the price list: one transaction with the desk log's entry and the audit record. */
  async setPrices(prices: PrintPrice[], actorId: number): Promise<PrintPrice[]> {
    return this.transact(async (tx) => {
      const before = await this.prices(tx);
      await this.print.prices.replace(prices, tx);
      await this.rules.log(tx, null, 'prices', [], JSON.stringify(prices), actorId);
      const after = await this.prices(tx);
      await this.auditor.record(actorId, 'cart.prices', 'print-prices', before, after, tx);
      return after;
    });
  }

  /** Adds the current page, or a range of pages of a volume, that the reader may read. */
  async addItems(
    viewer: Viewer & { userId: number },
    request:
      | { imageId: number; paperSize?: string }
      | { fascicleId: number; from: number; to: number; paperSize?: string },
  ): Promise<{ added: number }> {
    const prices = await this.prices();
    const price = prices.find((p) => p.paperSize === request.paperSize) ?? prices[0];
    if (!price) throw badRequest('NO_PRICE', MSG.serverException);
    let pages: Array<{ id: number; book_id: number; volume_id: number; seq: number }>;
    if ('imageId' in request) {
      const { page } = await this.catalog.readablePage(request.imageId, viewer);
      pages = [page];
    } else {
      if (request.to < request.from) throw badRequest('PRINT_RANGE', MSG.printRangeInvalid);
      if (request.to - request.from + 1 > PRINT_RANGE_MAX)
        throw badRequest('PRINT_RANGE', MSG.printRangeTooLong);
      const all = await this.catalogRepo.listPages(request.fascicleId);
      pages = all.filter((p) => p.seq >= request.from && p.seq <= request.to);
      if (pages.length === 0) throw badRequest('PRINT_RANGE', MSG.printRangeInvalid);
      await this.catalog.readablePage(pages[0]!.id, viewer);
    }
    const now = nowIso(this.clock.now());
    // The section each page belongs to, reading each volume's directory once (a range is one volume).
    const sections = new Map<number, Map<number, { id: number; name: string }>>();
    for (const volumeId of new Set(pages.map((p) => p.volume_id))) {
      const seqs = pages.filter((p) => p.volume_id === volumeId).map((p) => p.seq);
      sections.set(volumeId, await this.catalogRepo.directoryEntriesAt(volumeId, seqs));
    }
    const rows = [];
    for (const page of pages) {
      const entry = sections.get(page.volume_id)?.get(page.seq);
      rows.push({
        user_id: viewer.userId,
        book_id: page.book_id,
        volume_id: page.volume_id,
        page_id: page.id,
        directory_name: entry?.name ?? null,
        paper_size: price.paperSize,
        amount_fen: price.priceFen,
        order_id: null,
        pay_status: PAY_STATUS.unpaid,
        print_status: PRINT_STATUS.notPrinted,
        express_number: null,
        created_at: now,
      });
    }
    await this.print.items.add(rows);
    return { added: rows.length };
  }

  /** 'all prints' (6 a page, newest first) or 'to pay' (every unpaid item). */
  async myItems(userId: number, tab: 'all' | 'unpaid', pageNum: number): Promise<Paged<PrintItem>> {
    const unpaidOnly = tab === 'unpaid';
    const total = await this.print.items.count(userId, unpaidOnly);
    const size = unpaidOnly ? 500 : PRINT_PAGE_SIZE;
    const rows = await this.print.items.list({ userId, unpaidOnly }, 'newest', {
      offset: unpaidOnly ? 0 : (pageNum - 1) * size,
      limit: size,
    });
    return pagedOf(unpaidOnly ? 1 : pageNum, size, total, rows.map(toItem));
  }

  async deleteItems(userId: number, ids: number[]): Promise<void> {
    const now = nowIso(this.clock.now());
    await this.transact(async (tx) => {
      const rows = await this.print.items.userItems(userId, ids, tx);
      if (rows.length !== new Set(ids).size) throw NOT_FOUND();
      if (rows.some((r) => r.pay_status !== PAY_STATUS.unpaid))
        throw badRequest('PRINT_PAID', MSG.printDeleteOnlyUnpaid);
      const orders = orderIdsOf(rows);
      await this.print.orders.lockOrders(orders, now, tx);
      const deleted = await this.print.items.deleteUnpaidItems(userId, ids, tx);
      // Paid by a notice meanwhile: nothing of this request is applied.
      if (deleted !== rows.length) throw badRequest('PRINT_PAID', MSG.printDeleteOnlyUnpaid);
      await this.print.orders.dropEmptyOrders(userId, tx);
      await this.rules.settleOrders(tx, orders, now);
    });
  }
}
