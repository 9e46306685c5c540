import type { Db } from '../../db/database.ts';
import { PrintDeskRepository } from './print-desk.repository.ts';
import { PrintItemRepository } from './print-item.repository.ts';
import { PrintOrderRepository } from './print-order.repository.ts';
import { PrintPriceRepository } from './print-price.repository.ts';
import { RefundRepository } from './refund.repository.ts';

/**
 * The print feature's repositories, by resource: prices, items, orders, and the desk's log and notices
 * (trades and provider notices: payment.repository.ts), refunds and the cancellation of paid orders.
 */
export interface PrintRepositories {
  prices: PrintPriceRepository;
  items: PrintItemRepository;
  orders: PrintOrderRepository;
  desk: PrintDeskRepository;
  refunds: RefundRepository;
}

export function printRepositories(db: Db): PrintRepositories {
  return {
    prices: new PrintPriceRepository(db),
    items: new PrintItemRepository(db),
    orders: new PrintOrderRepository(db),
    desk: new PrintDeskRepository(db),
    refunds: new RefundRepository(db),
  };
}
