import { randomBytes } from 'node:crypto';
import { MSG, type ReconciliationReport, type ReconciliationRow, type Refund } from '@guji/shared';
import { nowIso } from '../../db/database.ts';
import type { DbOrTx } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PaymentProvider, ProviderTrade, RefundResult } from './payment.ts';
import type { PrintRepositories } from './print.repository.ts';
import type { PrintRules } from './print-rules.ts';
import type { RefundRow } from './refund.repository.ts';

/** A trade the provider is asked about at most this many at once (reconciliation). */
const QUERY_CONCURRENCY = 4;
/** China Standard Time: the library's day (reconciliation reports a day of trades). */
const CHINA_OFFSET = '+08:00';

const toRefund = (row: RefundRow): Refund => ({
  id: row.id,
  orderNum: row.order_num,
  provider: row.provider,
  refundNo: row.refund_no,
  tradeNo: row.trade_no,
  amountFen: row.amount_fen,
  reason: row.reason,
  status: row.status as Refund['status'],
  detail: row.detail,
  actor: row.actor,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The refund number sent to the provider (out_request_no / out_refund_no: letters and digits, ≤ 64). */
export const newRefundNo = () => `R${randomBytes(12).toString('hex')}`;

/**
 * Refunds (issue 18 part 5; docs/payments.md): a paid order that is not printed yet is cancelled at the
 * desk and its money returned, through the provider it was paid with or in cash; a payment that
 * arrives for a trade already closed is returned by itself (CheckoutService.handleNotice). A refund is
 * recorded before the provider is asked, under its own number, so asking again (a retry, or a provider
 * that timed out) is the same refund and money is never returned twice. Also the day's reconciliation.
 */
export class RefundService {
  constructor(
    private readonly print: PrintRepositories,
    private readonly rules: PrintRules,
    /** The live scan-to-pay provider (refunds of trades of another provider wait for a person). */
    private readonly provider: PaymentProvider | undefined,
    private readonly transact: Transact,
    private readonly clock: Clock,
  ) {}

  async ofOrder(orderNum: string): Promise<Refund[]> {
    const order = await this.print.orders.orderByNum(orderNum);
    if (!order) throw notFound('订单不存在');
    return (await this.print.refunds.ofOrder(order.id)).map(toRefund);
  }

  /** Cancels a paid, unprinted order and refunds it; the print log names who and why. */
  async cancelOrder(actorId: number, orderNum: string, reason: string): Promise<Refund> {
    const order = await this.print.orders.orderByNum(orderNum);
    if (!order) throw notFound('订单不存在');
    const now = nowIso(this.clock.now());
    const refundId = await this.transact(async (tx) => {
      if (!(await this.print.refunds.cancelPaidOrder(order.id, now, tx)))
        throw conflict('ORDER_NOT_CANCELLABLE', MSG.printCancelRefused);
      const trade = await this.print.refunds.paidTrade(order.id, tx);
      const id = await this.print.refunds.create(
        {
          orderId: order.id,
          provider: trade?.provider ?? 'cash',
          refundNo: newRefundNo(),
          tradeNo: trade?.trade_no ?? null,
          amountFen: trade?.amount_fen ?? order.total_fen,
          reason,
          // Cash is handed back at the desk by the person who cancels.
          status: trade ? 'pending' : 'success',
          detail: trade ? null : '现金订单：请在阅览室将现金退还读者',
          actorId,
          now,
        },
        tx,
      );
      await this.rules.log(tx, order.id, 'cancel-refund', [], reason, actorId);
      return id;
    });
    return this.settle(refundId);
  }

  /**
   * Records the refund of a payment for a closed trade (superseded by a newer code, or the order paid
   * in cash meanwhile): inside the notice's transaction, so the notice and its refund stand together.
   */
  async recordLatePayment(
    tx: DbOrTx,
    payment: { order_id: number; trade_no: string; amount_fen: number },
    provider: string,
    now: string,
  ): Promise<number> {
    // A trade is paid once: another notice of it (a second notify id) refunds nothing more.
    const existing = await this.print.refunds.ofTrade(payment.trade_no, tx);
    if (existing) return existing.id;
    const id = await this.print.refunds.create(
      {
        orderId: payment.order_id,
        provider,
        refundNo: newRefundNo(),
        tradeNo: payment.trade_no,
        amountFen: payment.amount_fen,
        reason: MSG.printLatePaymentRefund,
        status: 'pending',
        detail: null,
        actorId: null,
        now,
      },
      tx,
    );
    await this.rules.log(tx, payment.order_id, 'late-payment-refund', [], `trade ${payment.trade_no}`, null);
    return id;
  }

  /** Asks the provider again about a pending or failed refund (by its own number: the same refund). */
  async retry(refundId: number): Promise<Refund> {
    const row = await this.print.refunds.byId(refundId);
    if (!row) throw notFound('退款记录不存在');
    if (row.status === 'success') throw badRequest('REFUND_DONE', '该退款已完成');
    return this.settle(refundId);
  }

  /**
   * Asks the provider for a refund and records its answer. A pending refund is first looked up (it may
   * have been made by an earlier request that timed out); a provider that cannot be reached leaves it
   * pending with the reason, to be retried.
   */
  async settle(refundId: number): Promise<Refund> {
    const row = (await this.print.refunds.byId(refundId))!;
    if (row.status === 'success' || !row.trade_no) return toRefund(row);
    const provider = this.provider;
    let result: RefundResult;
    if (!provider || provider.name !== row.provider) {
      result = { status: 'pending', detail: `当前未开通该支付方式（${row.provider}），请在其商户平台退款` };
    } else {
      try {
        // Asked before without a clear answer: the provider may have made it; then it is done.
        const known =
          row.status === 'pending' && row.detail !== null
            ? await provider.queryRefund({ tradeNo: row.trade_no, refundNo: row.refund_no })
            : undefined;
        result =
          known?.status === 'success'
            ? known
            : await provider.refund({
                tradeNo: row.trade_no,
                refundNo: row.refund_no,
                amountFen: row.amount_fen,
                totalFen: row.amount_fen,
                reason: row.reason,
              });
      } catch (error) {
        result = { status: 'pending', detail: `支付服务暂时无法退款，请稍后重试（${messageOf(error)}）` };
      }
    }
    await this.print.refunds.settle(refundId, result.status, result.detail, nowIso(this.clock.now()));
    return toRefund((await this.print.refunds.byId(refundId))!);
  }

  /**
   * The day's trades (China time) against the live provider's records: each trade's state on both sides
   * and a verdict, with totals. Trades of the sandbox or another provider are listed as not checkable.
   */
  async reconcile(date: string): Promise<ReconciliationReport> {
    const from = new Date(`${date}T00:00:00${CHINA_OFFSET}`);
    const to = new Date(from.getTime() + 86_400_000);
    const trades = await this.print.refunds.tradesBetween(from.toISOString(), to.toISOString());
    const provider = this.provider;
    const rows: ReconciliationRow[] = new Array<ReconciliationRow>(trades.length);
    let next = 0;
    const worker = async () => {
      while (next < trades.length) {
        const index = next++;
        const trade = trades[index]!;
        const ours = trade.status as ReconciliationRow['ours'];
        const refundedFen = Number(trade.refunded_fen ?? 0);
        const base = {
          tradeNo: trade.trade_no,
          orderNum: trade.order_num,
          provider: trade.provider,
          createdAt: trade.created_at,
          ours,
          amountFen: trade.amount_fen,
          refundedFen,
        };
        if (!provider || provider.name !== trade.provider || provider.name === 'sandbox') {
          rows[index] = {
            ...base,
            theirs: 'error',
            theirAmountFen: null,
            verdict: 'unknown',
            note:
              trade.provider === 'sandbox' ? '沙箱交易，无支付平台记录' : '当前未开通该支付方式，无法查询',
          };
          continue;
        }
        let theirs: ProviderTrade;
        try {
          theirs = await provider.queryTrade(trade.trade_no);
        } catch (error) {
          rows[index] = {
            ...base,
            theirs: 'error',
            theirAmountFen: null,
            verdict: 'unknown',
            note: `查询失败：${messageOf(error)}`,
          };
          continue;
        }
        rows[index] = {
          ...base,
          theirs: theirs.state,
          theirAmountFen: theirs.amountFen,
          ...verdictOf(base, theirs),
        };
      }
    };
    await Promise.all(Array.from({ length: QUERY_CONCURRENCY }, worker));
    const sum = (pick: (row: ReconciliationRow) => number) => rows.reduce((s, row) => s + pick(row), 0);
    return {
      date,
      provider: provider?.name ?? null,
      trades: rows,
      totals: {
        trades: rows.length,
        paidFen: sum((r) => (r.ours === 'paid' ? r.amountFen : 0)),
        theirPaidFen: sum((r) =>
          r.theirs === 'paid' || r.theirs === 'refunded' ? (r.theirAmountFen ?? 0) : 0,
        ),
        refundedFen: sum((r) => r.refundedFen),
        discrepancies: rows.filter((r) => r.verdict !== 'ok').length,
      },
    };
  }
}

/** A trade's verdict: our record (paid or not, refunded or not) against the provider's. */
function verdictOf(
  ours: { ours: ReconciliationRow['ours']; amountFen: number; refundedFen: number },
  theirs: ProviderTrade,
): Pick<ReconciliationRow, 'verdict' | 'note'> {
  const moneyCame = theirs.state === 'paid' || theirs.state === 'refunded';
  const weRefunded = ours.refundedFen > 0;
  if (moneyCame && theirs.amountFen !== null && theirs.amountFen !== ours.amountFen)
    return { verdict: 'amountMismatch', note: null };
  if (ours.ours === 'paid' && !moneyCame) return { verdict: 'recordedNotPaid', note: null };
  if (theirs.state === 'refunded' && !weRefunded)
    return { verdict: 'refundMismatch', note: '支付平台已退款，本馆无退款记录' };
  if (theirs.state === 'paid' && weRefunded && ours.refundedFen >= ours.amountFen)
    return { verdict: 'refundMismatch', note: '本馆记为已退款，支付平台仍为已付' };
  // Paid at the provider for a trade we closed: returned by a refund, or not (money we must give back).
  if (moneyCame && ours.ours !== 'paid' && !weRefunded) return { verdict: 'paidNotRecorded', note: null };
  return { verdict: 'ok', note: null };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);
