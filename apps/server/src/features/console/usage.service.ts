import { sql } from 'kysely';
import type { Dashboard, DashboardCounts } from '@guji/shared';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { daysBetween, localDay, startOfLocalDay, zoneOffsetMs } from '../../lib/local-day.ts';

/** What the reader and the searches count per day. */
export type UsageMetric = 'pageViews' | 'bookOpens' | 'searches';

const EMPTY: DashboardCounts = {
  readers: 0,
  pageViews: 0,
  bookOpens: 0,
  searches: 0,
  registrations: 0,
  orders: 0,
  paidOrders: 0,
  revenueFen: 0,
  ocrPages: 0,
};

/**
 * Usage figures for the administration console's dashboard. The reader and the searches count into
 * per-day counters as they happen (no request log is kept: a reader's pages are not recorded, only how
 * many were read on a day and whether the reader came that day); orders, payments, registrations and
 * OCR runs are counted from their own tables. Days are calendar days in the library's time zone.
 */
export class UsageService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly timeZone: () => Promise<string>,
  ) {}

  /** Counts one event today; a signed-in user who opened a book or read a page is a reader of the day. */
  async count(metric: UsageMetric, userId: number | null): Promise<void> {
    const day = localDay(this.clock.now(), await this.timeZone());
    await this.db
      .insertInto('usage_daily')
      .values({ day, metric, count: 1 })
      .onConflict((oc) =>
        oc.columns(['day', 'metric']).doUpdateSet({ count: sql<number>`usage_daily.count + 1` }),
      )
      .execute();
    if (userId !== null && metric !== 'searches')
      await this.db
        .insertInto('usage_readers')
        .values({ day, user_id: userId })
        .onConflict((oc) => oc.columns(['day', 'user_id']).doNothing())
        .execute();
  }

  /** Per-day figures of the last `days` days (today included), their totals and the catalogue's size. */
  async dashboard(days: number): Promise<Dashboard> {
    const timeZone = await this.timeZone();
    const today = localDay(this.clock.now(), timeZone);
    const first = new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const range = daysBetween(first, today);
    const since = startOfLocalDay(first, timeZone).toISOString();
    const byDay = new Map(range.map((day) => [day, { ...EMPTY }]));
    const add = (day: string, key: keyof DashboardCounts, n: number | string | bigint) => {
      const counts = byDay.get(day);
      if (counts) counts[key] += Number(n);
    };

    const counters = await this.db
      .selectFrom('usage_daily')
      .select(['day', 'metric', 'count'])
      .where('day', '>=', first)
      .execute();
    for (const row of counters)
      if (row.metric === 'pageViews' || row.metric === 'bookOpens' || row.metric === 'searches')
        add(row.day, row.metric, row.count);
    const readers = await this.db
      .selectFrom('usage_readers')
      .select((eb) => ['day', eb.fn.countAll<number>().as('n')])
      .where('day', '>=', first)
      .groupBy('day')
      .execute();
    for (const row of readers) add(row.day, 'readers', row.n);

    // Timestamps are UTC text; counting per UTC minute keeps the rows few and lets every minute fall on
    // its local day whatever the zone's offset.
    const minute = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 16)`;
    // A zone's offset only changes on a quarter hour, so it is looked up once per UTC quarter hour.
    const offsets = new Map<string, number>();
    const dayOfMinute = (utcMinute: string) => {
      const at = Date.parse(`${utcMinute}:00Z`);
      const quarter = Math.floor(at / 900_000);
      let offset = offsets.get(String(quarter));
      if (offset === undefined) {
        offset = zoneOffsetMs(new Date(at), timeZone);
        offsets.set(String(quarter), offset);
      }
      return new Date(at + offset).toISOString().slice(0, 10);
    };
    const perMinute = async (
      rows: Promise<Array<{ minute: string; n: number | string | bigint; sum?: unknown }>>,
      key: keyof DashboardCounts,
      sumKey?: keyof DashboardCounts,
    ) => {
      for (const row of await rows) {
        const day = dayOfMinute(row.minute);
        add(day, key, row.n);
        if (sumKey) add(day, sumKey, Number(row.sum ?? 0));
      }
    };
    // Rows per UTC minute of a table's timestamp column (and the sum of one column), since `since`.
    const counted = (
      table: 'users' | 'print_orders' | 'ocr_versions',
      column: 'created_at' | 'paid_at',
      sumOf?: 'total_fen',
    ) =>
      this.db
        .selectFrom(table)
        .select((eb) => [
          minute(column).as('minute'),
          eb.fn.countAll<number>().as('n'),
          ...(sumOf ? [eb.fn.sum<number>(sumOf).as('sum')] : []),
        ])
        .where(column, '>=', since)
        .groupBy(minute(column));
    await perMinute(counted('users', 'created_at').execute(), 'registrations');
    await perMinute(counted('print_orders', 'created_at').execute(), 'orders');
    await perMinute(
      counted('print_orders', 'paid_at', 'total_fen').where('pay_status', '=', 1).execute(),
      'paidOrders',
      'revenueFen',
    );
    await perMinute(
      counted('ocr_versions', 'created_at').where('source', 'like', 'ocr:%').execute(),
      'ocrPages',
    );

    const totals = { ...EMPTY };
    for (const counts of byDay.values())
      for (const key of Object.keys(totals) as Array<keyof DashboardCounts>) totals[key] += counts[key];
    const catalogue = await this.db
      .selectFrom('books')
      .select((eb) => [
        eb.fn.countAll<number>().as('books'),
        eb.fn.sum<number>(eb.case().when('is_visible', '=', 1).then(1).else(0).end()).as('visible'),
      ])
      .where('is_lonely', '=', 0)
      .where((eb) => eb.or([eb('owner_id', 'is', null), eb('audit_status', '=', '2')]))
      .executeTakeFirstOrThrow();
    const pages = await this.db
      .selectFrom('pages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const users = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return {
      timeZone,
      days: range.map((day) => ({ day, ...byDay.get(day)! })),
      totals,
      catalogue: {
        books: Number(catalogue.books),
        visibleBooks: Number(catalogue.visible ?? 0),
        pages: Number(pages.n),
        users: Number(users.n),
      },
    };
  }
}
