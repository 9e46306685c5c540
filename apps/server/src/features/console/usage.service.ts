import type { Dashboard, DashboardCounts } from '@guji/shared';
import type { Clock } from '../../lib/clock.ts';
import { daysBetween, localDay, startOfLocalDay, zoneOffsetMs } from '../../lib/local-day.ts';
import type { MinuteCount, UsageRepository } from './usage.repository.ts';

/** Events wait this long in memory before they are written (UsageService.count). */
export const USAGE_FLUSH_MS = 5000;

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
  /** Events counted since the last flush: `day\tmetric` → how many. */
  private pending = new Map<string, number>();
  /** Readers of a day seen since the last flush: `day\tuserId`. */
  private readers = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly usage: UsageRepository,
    private readonly clock: Clock,
    private readonly timeZone: () => Promise<string>,
    /** How long events wait in memory before they are written, one upsert per day and metric. */
    private readonly flushMs = USAGE_FLUSH_MS,
  ) {}

  /**
   * Counts one event today; a signed-in user who opened a book or read a page is a reader of the day.
   * Kept in memory and written within `flushMs` (and before the dashboard is read, and on shutdown): with
   * one upsert per event every page turn of every reader waited on the same row of the day (the load
   * test, issue 17). A process killed outright loses at most those seconds of counts — figures, not
   * anything a reader saved.
   */
  async count(metric: UsageMetric, userId: number | null): Promise<void> {
    const day = localDay(this.clock.now(), await this.timeZone());
    const key = `${day}\t${metric}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    if (userId !== null && metric !== 'searches') this.readers.add(`${day}\t${userId}`);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      // A failed write keeps its counts for the next one.
      this.flush().catch(() => undefined);
    }, this.flushMs).unref();
  }

  /** Writes the counted events; on failure they stay to be written next time. */
  async flush(): Promise<void> {
    const counts = this.pending;
    const readers = this.readers;
    if (counts.size === 0 && readers.size === 0) return;
    this.pending = new Map();
    this.readers = new Set();
    try {
      await this.usage.addCounts(
        [...counts].map(([key, count]) => {
          const [day, metric] = key.split('\t') as [string, string];
          return { day, metric, count };
        }),
        [...readers].map((key) => {
          const [day, userId] = key.split('\t') as [string, string];
          return { day, user_id: Number(userId) };
        }),
      );
    } catch (error) {
      for (const [key, n] of counts) this.pending.set(key, (this.pending.get(key) ?? 0) + n);
      for (const key of readers) this.readers.add(key);
      throw error;
    }
  }

  /** Stops the timer and writes what is left (shutdown). */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Per-day figures of the last `days` days (today included), their totals and the catalogue's size. */
  async dashboard(days: number): Promise<Dashboard> {
    await this.flush();
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

    const counters = await this.usage.counters(first);
    for (const row of counters)
      if (row.metric === 'pageViews' || row.metric === 'bookOpens' || row.metric === 'searches')
        add(row.day, row.metric, row.count);
    const readers = await this.usage.readersPerDay(first);
    for (const row of readers) add(row.day, 'readers', row.n);

    // Counted per UTC minute, which keeps the rows few and lets every minute fall on its local day
    // whatever the zone's offset.
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
      rows: Promise<MinuteCount[]>,
      key: keyof DashboardCounts,
      sumKey?: keyof DashboardCounts,
    ) => {
      for (const row of await rows) {
        const day = dayOfMinute(row.minute);
        add(day, key, row.n);
        if (sumKey) add(day, sumKey, Number(row.sum ?? 0));
      }
    };
    await perMinute(this.usage.registrations(since), 'registrations');
    await perMinute(this.usage.orders(since), 'orders');
    await perMinute(this.usage.payments(since), 'paidOrders', 'revenueFen');
    await perMinute(this.usage.ocrRuns(since), 'ocrPages');

    const totals = { ...EMPTY };
    for (const counts of byDay.values())
      for (const key of Object.keys(totals) as Array<keyof DashboardCounts>) totals[key] += counts[key];
    const catalogue = await this.usage.catalogueSize();
    return {
      timeZone,
      days: range.map((day) => ({ day, ...byDay.get(day)! })),
      totals,
      catalogue,
    };
  }
}
