import { OWN_STATUS, PAY_STATUS } from '@guji/shared';
import { sql } from 'kysely';
import type { Db, DbOrTx } from '../../db/database.ts';

/** A count per UTC minute (`YYYY-MM-DDTHH:MM`), and a sum where asked. */
export interface MinuteCount {
  minute: string;
  n: number | string | bigint;
  sum?: unknown;
}

/**
 * The dashboard's figures: per-day counters the reader and the searches add to (usage_daily, and who
 * read on a day in usage_readers), and counts of registrations, orders, payments and OCR runs taken
 * from their own tables per UTC minute (a minute falls on one local day whatever the zone's offset).
 */
export class UsageRepository {
  constructor(private readonly db: Db) {}

  /** Adds counted events to the day's counters and records the day's readers (one statement each). */
  async addCounts(
    counts: Array<{ day: string; metric: string; count: number }>,
    readers: Array<{ day: string; user_id: number }>,
  ): Promise<void> {
    // In slices: many readers in one flush would pass the engines' limit of bound variables.
    for (let i = 0; i < counts.length; i += 500)
      await this.db
        .insertInto('usage_daily')
        .values(counts.slice(i, i + 500))
        .onConflict((oc) =>
          oc
            .columns(['day', 'metric'])
            .doUpdateSet({ count: sql<number>`usage_daily.count + excluded.count` }),
        )
        .execute();
    for (let i = 0; i < readers.length; i += 500)
      await this.db
        .insertInto('usage_readers')
        .values(readers.slice(i, i + 500))
        .onConflict((oc) => oc.columns(['day', 'user_id']).doNothing())
        .execute();
  }

  /** Each day's counters from `first` (a local day) on. */
  async counters(
    first: string,
    tx: DbOrTx = this.db,
  ): Promise<Array<{ day: string; metric: string; count: number }>> {
    return tx
      .selectFrom('usage_daily')
      .select(['day', 'metric', 'count'])
      .where('day', '>=', first)
      .execute();
  }

  /** The number of readers of each day from `first` on. */
  async readersPerDay(first: string, tx: DbOrTx = this.db): Promise<Array<{ day: string; n: number }>> {
    return tx
      .selectFrom('usage_readers')
      .select((eb) => ['day', eb.fn.countAll<number>().as('n')])
      .where('day', '>=', first)
      .groupBy('day')
      .execute();
  }

  /** Registrations per minute since the UTC time given. */
  async registrations(since: string, tx: DbOrTx = this.db): Promise<MinuteCount[]> {
    return this.perMinute(tx, 'users', 'created_at', since).execute();
  }

  /** Print orders placed per minute. */
  async orders(since: string, tx: DbOrTx = this.db): Promise<MinuteCount[]> {
    return this.perMinute(tx, 'print_orders', 'created_at', since).execute();
  }

  /** Print orders paid per minute, with the sum of their totals in fen. */
  async payments(since: string, tx: DbOrTx = this.db): Promise<MinuteCount[]> {
    return this.perMinute(tx, 'print_orders', 'paid_at', since, 'total_fen')
      .where('pay_status', '=', PAY_STATUS.paid)
      .execute();
  }

  /** Pages recognised by OCR jobs per minute. */
  async ocrRuns(since: string, tx: DbOrTx = this.db): Promise<MinuteCount[]> {
    return this.perMinute(tx, 'ocr_versions', 'created_at', since).where('source', 'like', 'ocr:%').execute();
  }

  /** The catalogue's size: its books (the library's and published own books), visible ones, pages, users. */
  async catalogueSize(
    tx: DbOrTx = this.db,
  ): Promise<{ books: number; visibleBooks: number; pages: number; users: number }> {
    const catalogue = await tx
      .selectFrom('books')
      .select((eb) => [
        eb.fn.countAll<number>().as('books'),
        eb.fn.sum<number>(eb.case().when('is_visible', '=', 1).then(1).else(0).end()).as('visible'),
      ])
      .where('is_lonely', '=', 0)
      .where((eb) => eb.or([eb('owner_id', 'is', null), eb('audit_status', '=', OWN_STATUS.published)]))
      .executeTakeFirstOrThrow();
    const pages = await tx
      .selectFrom('pages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const users = await tx
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return {
      books: Number(catalogue.books),
      visibleBooks: Number(catalogue.visible ?? 0),
      pages: Number(pages.n),
      users: Number(users.n),
    };
  }

  /** Rows per UTC minute of a table's timestamp column (and the sum of one column), since `since`. */
  private perMinute(
    tx: DbOrTx,
    table: 'users' | 'print_orders' | 'ocr_versions',
    column: 'created_at' | 'paid_at',
    since: string,
    sumOf?: 'total_fen',
  ) {
    // Timestamps are UTC text: the first 16 characters are the minute.
    const minute = sql<string>`substr(${sql.ref(column)}, 1, 16)`;
    return tx
      .selectFrom(table)
      .select((eb) => [
        minute.as('minute'),
        eb.fn.countAll<number>().as('n'),
        ...(sumOf ? [eb.fn.sum<number>(sumOf).as('sum')] : []),
      ])
      .where(column, '>=', since)
      .groupBy(minute);
  }
}
