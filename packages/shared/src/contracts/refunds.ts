import { PrintOrderParams } from '../api/print.ts';
import {
  CancelOrderRequest,
  ReconciliationQuery,
  ReconciliationReport,
  Refund,
  RefundParams,
} from '../api/refunds.ts';
import { contract } from '../contract.ts';
import { z } from 'zod';

const tags = ['admin'];

/** Refunds and reconciliation at the print desk (print administrators; docs/payments.md). */
export const refundApi = {
  cancel: contract({
    method: 'POST',
    path: '/api/admin/print/orders/:orderNum/cancel',
    summary:
      'Cancel a paid order none of whose pages is printed yet, and refund it: through the provider it was paid with, or as cash handed back at the desk',
    tags,
    params: PrintOrderParams,
    body: CancelOrderRequest,
    response: Refund,
  }),
  ofOrder: contract({
    method: 'GET',
    path: '/api/admin/print/orders/:orderNum/refunds',
    summary: 'The refunds of an order, newest first',
    tags,
    params: PrintOrderParams,
    response: z.array(Refund),
  }),
  retry: contract({
    method: 'POST',
    path: '/api/admin/print/refunds/:refundId/retry',
    summary:
      'Ask the provider again about a refund that is pending or failed (the same refund number: never a second refund)',
    tags,
    params: RefundParams,
    response: Refund,
  }),
  reconciliation: contract({
    method: 'GET',
    path: '/api/admin/print/reconciliation',
    summary:
      "The day's trades (China time) checked against the provider's records: paid, refunded and every discrepancy",
    tags,
    query: ReconciliationQuery,
    response: ReconciliationReport,
  }),
};
