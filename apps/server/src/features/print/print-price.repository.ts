import type { Db, DbOrTx } from '../../db/database.ts';

/** Print prices: fen per page by paper size. */
export class PrintPriceRepository {
  constructor(private readonly db: Db) {}

  async list(tx: DbOrTx = this.db) {
    return tx.selectFrom('print_prices').selectAll().orderBy('sort').execute();
  }

  async replace(
    prices: Array<{ paperSize: string; label: string; priceFen: number }>,
    tx: DbOrTx,
  ): Promise<void> {
    await tx.deleteFrom('print_prices').execute();
    await tx
      .insertInto('print_prices')
      .values(
        prices.map((p, i) => ({
          paper_size: p.paperSize,
          label: p.label,
          price_fen: p.priceFen,
          sort: i + 1,
        })),
      )
      .execute();
  }
}
