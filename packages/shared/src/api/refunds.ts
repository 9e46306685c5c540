import { z } from 'zod';

/** Refunds of paid print orders and the day's reconciliation with the payment provider (docs/payments.md). */

export const REFUND_STATUS_LABELS = {
  pending: '退款处理中',
  success: '已退款',
  failed: '退款失败',
} as const;
export type RefundStatus = keyof typeof REFUND_STATUS_LABELS;

/** What a refund returns to: the trade's provider, or cash handed back at the desk. */
export const REFUND_PROVIDER_LABELS: Record<string, string> = {
  alipay: '支付宝',
  wechat: '微信支付',
  sandbox: '沙箱',
  cash: '现金',
};

export const Refund = z.object({
  id: z.number().int(),
  orderNum: z.string(),
  provider: z.string().describe('alipay, wechat or sandbox (the trade’s provider), or cash'),
  refundNo: z.string().describe('Our refund number (the provider’s out_request_no / out_refund_no)'),
  tradeNo: z.string().nullable(),
  amountFen: z.number().int(),
  reason: z.string(),
  status: z.enum(['pending', 'success', 'failed']),
  detail: z.string().nullable().describe('The provider’s words when it refused or is still processing'),
  actor: z.string().nullable().describe('Who cancelled the order; null for an automatic refund'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Refund = z.infer<typeof Refund>;

export const CancelOrderRequest = z.object({
  reason: z.string().trim().min(1, '请填写取消原因').max(200, '取消原因最多 200 字'),
});
export type CancelOrderRequest = z.infer<typeof CancelOrderRequest>;

export const RefundParams = z.object({ refundId: z.coerce.number().int().positive() });

export const ReconciliationQuery = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00+08:00`)), '日期无效'),
});
export type ReconciliationQuery = z.infer<typeof ReconciliationQuery>;

export const RECONCILIATION_VERDICTS = {
  ok: '一致',
  paidNotRecorded: '支付平台已收款，本馆未记为已付',
  recordedNotPaid: '本馆记为已付，支付平台无此收款',
  amountMismatch: '金额不一致',
  refundMismatch: '退款不一致',
  unknown: '无法查询',
} as const;
export type ReconciliationVerdict = keyof typeof RECONCILIATION_VERDICTS;

export const ReconciliationRow = z.object({
  tradeNo: z.string(),
  orderNum: z.string(),
  provider: z.string(),
  createdAt: z.string(),
  ours: z.enum(['pending', 'paid', 'closed']).describe('The trade as we recorded it'),
  amountFen: z.number().int(),
  refundedFen: z.number().int().describe('What our successful refunds of the trade returned'),
  theirs: z
    .enum(['paid', 'unpaid', 'refunded', 'missing', 'error'])
    .describe('The trade as the provider reports it'),
  theirAmountFen: z.number().int().nullable(),
  verdict: z.enum([
    'ok',
    'paidNotRecorded',
    'recordedNotPaid',
    'amountMismatch',
    'refundMismatch',
    'unknown',
  ]),
  note: z.string().nullable(),
});
export type ReconciliationRow = z.infer<typeof ReconciliationRow>;

export const ReconciliationReport = z.object({
  date: z.string(),
  provider: z.string().nullable().describe('The live provider; null when scan-to-pay is off'),
  trades: z.array(ReconciliationRow),
  totals: z.object({
    trades: z.number().int(),
    paidFen: z.number().int().describe('Paid by our records'),
    theirPaidFen: z.number().int().describe('Paid as the provider reports (refunded trades included)'),
    refundedFen: z.number().int(),
    discrepancies: z.number().int(),
  }),
});
export type ReconciliationReport = z.infer<typeof ReconciliationReport>;
