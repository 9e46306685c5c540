import path from 'node:path';
import {
  PostgresQueryCompiler,
  SqliteQueryCompiler,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBook } from '../../test/catalog-factory.ts';
import { createTestContext, DIALECTS, type TestContext } from '../../test/helpers.ts';
import { CatalogRepository } from '../features/catalog/catalog.repository.ts';
import { PaymentRepository } from '../features/print/payment.repository.ts';
import { printRepositories } from '../features/print/print.repository.ts';
import { SearchRepository } from '../features/search/search.repository.ts';
import type { Db, Dialect } from './database.ts';

/**
 * The SQL each repository method sends, per dialect, checked in under apps/server/queries/ (as immich keeps
 * server/src/queries/*.sql): a change to a query shows in review as a change to its SQL. The methods run
 * against a fresh migrated database with a small library in it; every statement they send is recorded
 * (the parameters' values are left out: they are the same on both sides). A method of these repositories
 * that has no entry below fails the test, so a new query cannot go unrecorded. Update with
 * `npx vitest run apps/server/src/db/query-snapshots.test.ts -u` and read the diff.
 */

const AT = '2026-06-01T08:00:00.000Z';
const LATER = '2026-07-01T08:00:00.000Z';

/** Records the SQL of every statement a database handle sends. */
class Recorder implements KyselyPlugin {
  readonly statements: string[] = [];
  private readonly compiler;
  constructor(dialect: Dialect) {
    this.compiler = dialect === 'sqlite' ? new SqliteQueryCompiler() : new PostgresQueryCompiler();
  }
  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    this.statements.push(this.compiler.compileQuery(node, queryId).sql);
    return node;
  }
  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}

/** One line per clause, so that a diff points at the clause that changed. */
const CLAUSE =
  / (from|where|and|or|inner join|left join|cross join|group by|having|order by|limit|offset|returning|values|set|on conflict|union all|union|except|intersect) /g;
const readable = (statement: string) => statement.replace(CLAUSE, '\n  $1 ');

interface Library {
  bookId: number;
  volumeId: number;
  pageIds: number[];
  userId: number;
}

type Calls = Record<string, (repo: never, library: Library) => Promise<unknown>>;

/** The calls of each repository, in the order they run (writes after the reads that would see them). */
function repositories(db: Db, dialect: Dialect) {
  const print = printRepositories(db);
  return {
    search: {
      repo: new SearchRepository(db),
      calls: {
        eachPageSlice: (r: SearchRepository, l) => r.eachPageSlice(l.pageIds, () => undefined),
        pageTexts: (r: SearchRepository, l) => r.pageTexts(l.pageIds),
        bookFacts: (r: SearchRepository, l) => r.bookFacts([l.bookId]),
        classificationNames: (r: SearchRepository) => r.classificationNames(),
      } satisfies Calls,
    },
    catalog: {
      repo: new CatalogRepository(db, dialect),
      calls: {
        hasBooks: (r: CatalogRepository) => r.hasBooks(),
        adminBooks: (r: CatalogRepository) =>
          r.adminBooks({ text: '論語', state: 'visible', offset: 0, limit: 10 }),
        volumeAndPageCounts: (r: CatalogRepository, l) => r.volumeAndPageCounts([l.bookId]),
        allBookIds: (r: CatalogRepository) => r.allBookIds(),
        briefBooks: (r: CatalogRepository, l) => r.briefBooks([l.bookId]),
        findBook: (r: CatalogRepository, l) => r.findBook(l.bookId),
        findBookBySourceKey: (r: CatalogRepository) => r.findBookBySourceKey('demo:lunyu'),
        hasReaderData: (r: CatalogRepository, l) => r.hasReaderData(l.bookId),
        searchBooks: (r: CatalogRepository) =>
          r.searchBooks({ title: '論語', classCodes: ['A'], visibleOnly: true, offset: 0, limit: 10 }),
        advancedSearch: (r: CatalogRepository) =>
          r.advancedSearch({
            conditions: [
              { field: 'title', value: '論語', join: 'and' },
              { field: 'author', value: '孔', join: 'or' },
            ],
            exact: false,
            visibleOnly: true,
            offset: 0,
            limit: 10,
          }),
        hotBooks: (r: CatalogRepository) => r.hotBooks(0, 10),
        publicBooks: (r: CatalogRepository) => r.publicBooks(),
        hasActivePrivilege: (r: CatalogRepository, l) => r.hasActivePrivilege(l.userId, l.bookId, AT),
        countFootprints: (r: CatalogRepository, l) => r.countFootprints(l.userId),
        listVolumes: (r: CatalogRepository, l) => r.listVolumes(l.bookId),
        countVolumes: (r: CatalogRepository, l) => r.countVolumes(l.bookId),
        findVolume: (r: CatalogRepository, l) => r.findVolume(l.volumeId),
        pagesWithText: (r: CatalogRepository, l) => r.pagesWithText(l.bookId),
        allMasterKeys: (r: CatalogRepository) => r.allMasterKeys(),
        pagesWithPyramids: (r: CatalogRepository) => r.pagesWithPyramids(0, 500),
        pyramidInUse: (r: CatalogRepository) => r.pyramidInUse('pyramids/1/1.tif'),
        pageFiles: (r: CatalogRepository, l) => r.pageFiles({ volumeId: l.volumeId }),
        lastPageSeq: (r: CatalogRepository, l) => r.lastPageSeq(l.volumeId, db),
        listPages: (r: CatalogRepository, l) => r.listPages(l.volumeId),
        findPage: (r: CatalogRepository, l) => r.findPage(l.pageIds[0]!),
        findImagePage: (r: CatalogRepository, l) => r.findImagePage(l.pageIds[0]!),
        coverPage: (r: CatalogRepository, l) => r.coverPage(l.bookId),
        coverPageIds: (r: CatalogRepository, l) => r.coverPageIds([l.bookId]),
        pendingPageIds: (r: CatalogRepository) => r.pendingPageIds(),
        directoryEntryAt: (r: CatalogRepository, l) => r.directoryEntryAt(l.volumeId, 1),
        directoryEntriesAt: (r: CatalogRepository, l) => r.directoryEntriesAt(l.volumeId, [1, 2]),
        listDirectory: (r: CatalogRepository, l) => r.listDirectory(l.volumeId),
        incrementViews: (r: CatalogRepository, l) => r.incrementViews(l.bookId),
        grantPrivilege: (r: CatalogRepository, l) => r.grantPrivilege(l.userId, l.bookId, AT, LATER),
        addFootprint: (r: CatalogRepository, l) => r.addFootprint(l.userId, l.bookId, l.volumeId),
        setPyramid: (r: CatalogRepository, l) => r.setPyramid(l.pageIds[0]!, 'pyramids/1/1.tif', 'ready'),
        updateBook: (r: CatalogRepository, l) =>
          r.updateBook(l.bookId, { title: '論語集注', updated_at: AT }, db),
        createBook: (r: CatalogRepository) => r.createBook({ title: '孟子', title_search: '孟 子' }, db),
        createVolume: (r: CatalogRepository, l) =>
          r.createVolume({ bookId: l.bookId, name: '卷二', introduction: null, sort: 2 }, db),
        createPage: (r: CatalogRepository, l) =>
          r.createPage(
            {
              volumeId: l.volumeId,
              bookId: l.bookId,
              seq: 9,
              name: '9',
              width: 600,
              height: 400,
              masterKey: 'masters/9.png',
              ocrJson: null,
            },
            db,
          ),
        createDirectoryEntry: (r: CatalogRepository, l) =>
          r.createDirectoryEntry(
            {
              volumeId: l.volumeId,
              bookId: l.bookId,
              parentId: null,
              name: '學而',
              pageId: l.pageIds[0]!,
              sort: 1,
            },
            db,
          ),
        unpublishOwnBook: (r: CatalogRepository, l) => r.unpublishOwnBook(l.bookId, l.userId, AT, db),
        deleteVolumesOfBook: (r: CatalogRepository, l) => r.deleteVolumesOfBook(l.bookId + 1000),
        deleteBook: (r: CatalogRepository, l) => r.deleteBook(l.bookId + 1000, db),
      } satisfies Calls,
    },
    printPrices: {
      repo: print.prices,
      calls: {
        list: (r: typeof print.prices) => r.list(),
        replace: (r: typeof print.prices) =>
          r.replace([{ paperSize: 'A4', label: 'A4 纸', priceFen: 200 }], db),
      } satisfies Calls,
    },
    printOrders: {
      repo: print.orders,
      calls: {
        createOrder: (r: typeof print.orders, l) =>
          r.createOrder(
            {
              order_num: 'P20260601000001',
              user_id: l.userId,
              extract: 1,
              payment: 1,
              is_invoice: 0,
              invoice_title: null,
              consignee: null,
              consignee_phone: null,
              delivery_address: null,
              total_fen: 200,
              pay_status: 0,
              paid_at: null,
              created_at: AT,
              updated_at: AT,
            },
            db,
          ),
        lockOrders: (r: typeof print.orders) => r.lockOrders([1], AT, db),
        lockUnpaidOrder: (r: typeof print.orders) => r.lockUnpaidOrder(1, AT, db),
        resettleOrder: (r: typeof print.orders) => r.resettleOrder(1, 200, false, AT, db),
        orderByNum: (r: typeof print.orders) => r.orderByNum('P20260601000001'),
        markOrderPaid: (r: typeof print.orders) => r.markOrderPaid(1, AT, db),
        paidOrderSummary: (r: typeof print.orders) => r.paidOrderSummary(1),
        orderForCover: (r: typeof print.orders) => r.orderForCover(1),
        deskOrders: (r: typeof print.orders) =>
          r.deskOrders({
            realName: '張',
            phone: '13800000000',
            email: 'a@b.cn',
            extract: 1,
            offset: 0,
            limit: 10,
          }),
        dropEmptyOrders: (r: typeof print.orders, l) => r.dropEmptyOrders(l.userId, db),
      } satisfies Calls,
    },
    printItems: {
      repo: print.items,
      calls: {
        add: (r: typeof print.items, l) =>
          r.add([
            {
              user_id: l.userId,
              book_id: l.bookId,
              volume_id: l.volumeId,
              page_id: l.pageIds[0]!,
              directory_name: null,
              paper_size: 'A4',
              amount_fen: 200,
              order_id: null,
              pay_status: 0,
              print_status: 0,
              express_number: null,
              created_at: AT,
            },
          ]),
        list: (r: typeof print.items, l) =>
          r.list({ userId: l.userId, unpaidOnly: true }, 'byPage', { offset: 0, limit: 10 }),
        count: (r: typeof print.items, l) => r.count(l.userId, true),
        userItems: (r: typeof print.items, l) => r.userItems(l.userId, [1, 2]),
        assignItems: (r: typeof print.items) => r.assignItems([1], 1, db),
        orderItemAmounts: (r: typeof print.items) => r.orderItemAmounts(1),
        itemBookIds: (r: typeof print.items, l) => r.itemBookIds(l.userId, [1]),
        orderBookIds: (r: typeof print.items) => r.orderBookIds(1),
        hasUnpaidItems: (r: typeof print.items) => r.hasUnpaidItems(1),
        deskItems: (r: typeof print.items) => r.deskItems([1]),
        markOrderItemsPaid: (r: typeof print.items) => r.markOrderItemsPaid(1, db),
        markItemsPaid: (r: typeof print.items) => r.markItemsPaid([1], db),
        markItemsPrinted: (r: typeof print.items) => r.markItemsPrinted([1], db),
        setExpress: (r: typeof print.items) => r.setExpress([1], 'SF1234567890', db),
        deleteUnpaidItems: (r: typeof print.items, l) => r.deleteUnpaidItems(l.userId, [999], db),
      } satisfies Calls,
    },
    printDesk: {
      repo: print.desk,
      calls: {
        userRoles: (r: typeof print.desk, l) => r.userRoles(l.userId),
        log: (r: typeof print.desk, l) =>
          r.log({ orderId: 1, action: 'print', itemIds: [1], detail: null, actorId: l.userId, at: AT }, db),
        orderLog: (r: typeof print.desk) => r.orderLog('P20260601000001'),
        ordersOfFile: (r: typeof print.desk) => r.ordersOfFile('P20260601000001.pdf'),
        notify: (r: typeof print.desk) => r.notify({ text: '新订单', link: '/admin/print', at: AT }),
        notifications: (r: typeof print.desk) => r.notifications(10),
      } satisfies Calls,
    },
    payments: {
      repo: new PaymentRepository(db),
      calls: {
        createTrade: (r: PaymentRepository) =>
          r.createTrade({ orderId: 1, provider: 'sandbox', tradeNo: 'T1', amountFen: 200, now: AT }, db),
        trade: (r: PaymentRepository) => r.trade('T1'),
        recordNotice: (r: PaymentRepository) =>
          r.recordNotice({ noticeId: 'N1', tradeNo: 'T1', body: '{}', receivedAt: AT }, db),
        markTradePaid: (r: PaymentRepository) => r.markTradePaid(1, AT, db),
        tradeStatus: (r: PaymentRepository) => r.tradeStatus(1),
        closeTrade: (r: PaymentRepository) => r.closeTrade('T9'),
        closeTrades: (r: PaymentRepository) => r.closeTrades(999, db),
      } satisfies Calls,
    },
    refunds: {
      repo: print.refunds,
      calls: {
        create: (r: typeof print.refunds, l) =>
          r.create(
            {
              orderId: 1,
              provider: 'sandbox',
              refundNo: 'R1',
              tradeNo: 'T1',
              amountFen: 200,
              reason: '读者申请',
              status: 'pending',
              detail: null,
              actorId: l.userId,
              now: AT,
            },
            db,
          ),
        byId: (r: typeof print.refunds) => r.byId(1),
        ofTrade: (r: typeof print.refunds) => r.ofTrade('T1'),
        ofOrder: (r: typeof print.refunds) => r.ofOrder(1),
        settle: (r: typeof print.refunds) => r.settle(1, 'success', null, AT),
        paidTrade: (r: typeof print.refunds) => r.paidTrade(1),
        tradesBetween: (r: typeof print.refunds) => r.tradesBetween(AT, LATER),
        cancelPaidOrder: (r: typeof print.refunds) => r.cancelPaidOrder(999, AT, db),
      } satisfies Calls,
    },
  };
}

/** Private helpers of these repositories: their SQL shows in the methods that use them. */
const PRIVATE = new Set(['selectRefunds']);

/** The public methods of a repository (its class and the classes it extends), constructor left out. */
function methodsOf(repo: object): string[] {
  const names = new Set<string>();
  for (
    let proto = Object.getPrototypeOf(repo) as object | null;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  )
    for (const name of Object.getOwnPropertyNames(proto))
      if (
        name !== 'constructor' &&
        !PRIVATE.has(name) &&
        typeof (proto as Record<string, unknown>)[name] === 'function'
      )
        names.add(name);
  return [...names].sort();
}

describe.each(DIALECTS)('the SQL of the repositories (%s)', (dialect) => {
  let t: TestContext;
  let library: Library;
  let recorder: Recorder;
  let repos: ReturnType<typeof repositories>;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    const { context } = t;
    const book = await createBook(context, {
      title: '論語',
      volumes: [2],
      texts: [['學而時習之', '不亦說乎']],
    });
    const userId = await context.repos.users.create(
      { login_name: 'snapshot', password_hash: 'x' },
      ['reader'],
      context.database.db,
    );
    library = { bookId: book.bookId, volumeId: book.volumeIds[0]!, pageIds: book.pageIds, userId };
    recorder = new Recorder(dialect);
    repos = repositories(context.database.db.withPlugin(recorder), dialect);
  });
  afterAll(() => t.close());

  it('every method of these repositories has its call', () => {
    for (const [name, { repo, calls }] of Object.entries(repos))
      expect(Object.keys(calls).sort(), name).toEqual(methodsOf(repo));
  });

  it('each method sends the SQL checked in under apps/server/queries/', async () => {
    for (const [name, { repo, calls }] of Object.entries(repos)) {
      const lines: string[] = [];
      for (const [method, call] of Object.entries(calls as Calls)) {
        recorder.statements.length = 0;
        // A write may be refused (a row another test of this list removed): its SQL is what counts.
        await (call as (r: unknown, l: Library) => Promise<unknown>)(repo, library).catch(() => undefined);
        lines.push(`-- ${name}.${method}`, ...recorder.statements.map((s) => `${readable(s)};`), '');
      }
      await expect(lines.join('\n')).toMatchFileSnapshot(
        path.join(import.meta.dirname, '../../queries', dialect, `${name}.sql`),
      );
    }
  });
});
