import { z } from 'zod';
import { MSG } from '../messages.ts';
import { isSafeName, isValidPhone } from '../validation.ts';

/** Page sizes of spec §9: own print list 6, admin print summary 8. */
export const PRINT_PAGE_SIZE = 6;
export const ADMIN_PRINT_PAGE_SIZE = 8;
/** How often the desktop asks whether a scanned order is paid (spec §4). */
export const PAY_POLL_MS = 2000;
/** Delay of the cash note after a cash order is saved (spec §9). */
export const CASH_NOTE_DELAY_MS = 500;
/** Pages one range may add at once. */
export const PRINT_RANGE_MAX = 200;
/**
 * Most items one request selects (checkout, delete, the desk's batches): the 'to pay' list shows at most
 * 500 and an order holds what one checkout took, so 1000 is more than any screen sends.
 */
export const PRINT_SELECT_MAX = 1000;

/** Payment modes (spec §3): 0 cash, 1 scan. Extraction: 0 self-pickup, 1 post. */
export const PAYMENT_LABELS: Record<number, string> = { 0: '现金', 1: '扫码支付' };
export const EXTRACT_LABELS: Record<number, string> = { 0: '到馆自取', 1: '邮寄' };
/** Pay state of an order or an item (spec §3 payStatus). */
export const PAY_STATUS = { unpaid: 0, paid: 1, refunded: 2 } as const;
/** Print state of an item (spec §3 printStatus). */
export const PRINT_STATUS = { notPrinted: 0, printed: 1 } as const;
export const PAY_STATUS_LABELS: Record<number, string> = {
  [PAY_STATUS.unpaid]: '未支付',
  [PAY_STATUS.paid]: '已支付',
  [PAY_STATUS.refunded]: '已退款',
};
export const PRINT_STATUS_LABELS: Record<number, string> = {
  [PRINT_STATUS.notPrinted]: '未打印',
  [PRINT_STATUS.printed]: '已打印',
};

/** Fen → yuan with two decimals, e.g. 150 → "1.50". */
export function yuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export const PrintPrice = z.object({
  paperSize: z.string(),
  label: z.string(),
  priceFen: z.number().int().min(0),
});
export type PrintPrice = z.infer<typeof PrintPrice>;

export const UpdatePricesRequest = z.object({
  prices: z
    .array(
      z.object({
        paperSize: z.string().trim().min(1).max(10).refine(isSafeName, MSG.nameUnsafeChars),
        label: z.string().trim().min(1).max(20).refine(isSafeName, MSG.nameUnsafeChars),
        priceFen: z.number().int().min(0).max(1_000_000),
      }),
    )
    .min(1)
    .max(20, MSG.printPricesTooMany),
});
export type UpdatePricesRequest = z.infer<typeof UpdatePricesRequest>;

export const AddPrintItemsRequest = z.union([
  z.object({ imageId: z.number().int(), paperSize: z.string().max(10).optional() }),
  z.object({
    fascicleId: z.number().int(),
    from: z.number().int().min(1),
    to: z.number().int().min(1),
    paperSize: z.string().max(10).optional(),
  }),
]);
export type AddPrintItemsRequest = z.infer<typeof AddPrintItemsRequest>;

export const AddPrintItemsResult = z.object({ added: z.number().int(), message: z.string() });
export type AddPrintItemsResult = z.infer<typeof AddPrintItemsResult>;

/** My prints: tab 'all' (6 a page, newest first) or 'unpaid'. */
export const PrintItemsQuery = z.object({
  tab: z.enum(['all', 'unpaid']).default('all'),
  pageNum: z.coerce.number().int().min(1).default(1),
});
export type PrintItemsQuery = z.infer<typeof PrintItemsQuery>;

export const PrintItem = z.object({
  id: z.number().int(),
  orderId: z.number().int().nullable(),
  orderNum: z.string().nullable(),
  catalogId: z.number().int(),
  title: z.string(),
  callNumber: z.string().nullable(),
  /** The directory entry the page belongs to (spec: name). */
  name: z.string().nullable(),
  imageId: z.number().int(),
  pageNumber: z.number().int(),
  volumeName: z.string(),
  filePath: z.string().describe('Thumbnail of the page'),
  paperSize: z.string(),
  amountFen: z.number().int(),
  payment: z.number().int().nullable(),
  extract: z.number().int().nullable(),
  payStatus: z.number().int(),
  printStatus: z.number().int(),
  expressNumber: z.string().nullable(),
  creator: z.string(),
  createTime: z.string(),
});
export type PrintItem = z.infer<typeof PrintItem>;

export const DeleteItemsRequest = z.object({
  ids: z.array(z.number().int()).min(1, MSG.selectAtLeastOne).max(PRINT_SELECT_MAX, MSG.printSelectTooMany),
});
export type DeleteItemsRequest = z.infer<typeof DeleteItemsRequest>;

export const CheckoutRequest = z
  .object({
    itemIds: z
      .array(z.number().int())
      .min(1, MSG.checkoutSelectOne)
      .max(PRINT_SELECT_MAX, MSG.printSelectTooMany),
    extract: z.union([z.literal(0), z.literal(1)], { message: MSG.checkoutExtractRequired }),
    payment: z.union([z.literal(0), z.literal(1)]).optional(),
    isInvoice: z.union([z.literal(0), z.literal(1)]).default(0),
    // What the desk and the invoice show: no tags, control or bidi characters (issue 13 item 13).
    invoiceTitle: z.string().trim().max(100).refine(isSafeName, MSG.nameUnsafeChars).optional(),
    consignee: z.string().trim().max(50).refine(isSafeName, MSG.nameUnsafeChars).optional(),
    consigneePhonenum: z.string().trim().max(20).optional(),
    deliveryAddress: z.string().trim().max(200).refine(isSafeName, MSG.nameUnsafeChars).optional(),
  })
  .superRefine((value, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (value.extract === 1) {
      if (!value.consignee) issue('consignee', MSG.checkoutConsigneeRequired);
      if (!value.consigneePhonenum) issue('consigneePhonenum', MSG.checkoutPhoneRequired);
      else if (!isValidPhone(value.consigneePhonenum)) issue('consigneePhonenum', MSG.phoneInvalid);
      if (!value.deliveryAddress) issue('deliveryAddress', MSG.checkoutAddressRequired);
    } else if (value.payment === undefined) {
      issue('payment', MSG.checkoutPaymentRequired);
    }
    if (value.isInvoice === 1 && !value.invoiceTitle) issue('invoiceTitle', MSG.checkoutInvoiceTitleRequired);
  });
export type CheckoutRequest = z.input<typeof CheckoutRequest>;

export const PrintOrder = z.object({
  orderNum: z.string(),
  extract: z.number().int(),
  payment: z.number().int(),
  isInvoice: z.number().int(),
  invoiceTitle: z.string().nullable(),
  consignee: z.string().nullable(),
  consigneePhonenum: z.string().nullable(),
  deliveryAddress: z.string().nullable(),
  totalFen: z.number().int(),
  totalPage: z.number().int(),
  payStatus: z.number().int(),
  paidAt: z.string().nullable(),
  createTime: z.string(),
  creator: z.string(),
  items: z.array(PrintItem),
});
export type PrintOrder = z.infer<typeof PrintOrder>;

/** A print order's `:orderNum`: P and 20 digits, made by the server. */
export const PrintOrderParams = z.object({ orderNum: z.string().regex(/^P\d{20}$/) });
export type PrintOrderParams = z.infer<typeof PrintOrderParams>;

/** The answer of the payment-status poll: `data` is the text 'paid' when done (spec §7). */
export const PayStatus = z.object({ data: z.enum(['paid', 'unpaid']) });
export type PayStatus = z.infer<typeof PayStatus>;

export const ScanPayment = z.object({
  tradeNo: z.string(),
  amountFen: z.number().int(),
  /** The mobile payment page the QR code opens. */
  payUrl: z.string(),
  /** The QR code as an SVG data URL. */
  qrCode: z.string(),
});
export type ScanPayment = z.infer<typeof ScanPayment>;

export const SandboxPaymentInfo = z.object({
  tradeNo: z.string(),
  orderNum: z.string(),
  amountFen: z.number().int(),
  status: z.enum(['pending', 'paid']),
  siteName: z.string(),
});
export type SandboxPaymentInfo = z.infer<typeof SandboxPaymentInfo>;

/** A sandbox trade's `:tradeNo`. */
export const PaymentTradeParams = z.object({ tradeNo: z.string().regex(/^[0-9a-f]{24}$/) });
export type PaymentTradeParams = z.infer<typeof PaymentTradeParams>;

/** The signature a sandbox payment link carries. */
export const SandboxPaymentQuery = z.object({ sig: z.string().max(64) });
export type SandboxPaymentQuery = z.infer<typeof SandboxPaymentQuery>;

/** The payer confirms (`pay`) or cancels on the sandbox page. */
export const SandboxConfirmRequest = SandboxPaymentQuery.extend({ pay: z.boolean() });
export type SandboxConfirmRequest = z.infer<typeof SandboxConfirmRequest>;

/** Where the sandbox page sends the payer: /MobileSuccess?pay_result=1 when paid, 0 otherwise. */
export const SandboxConfirmResult = z.object({ payResult: z.union([z.literal(0), z.literal(1)]) });
export type SandboxConfirmResult = z.infer<typeof SandboxConfirmResult>;

/** A payment provider's notice as posted to its notify webhook (checked by the provider's rules). */
export const PaymentNotice = z.record(z.string(), z.unknown());
export type PaymentNotice = z.infer<typeof PaymentNotice>;

export const PaymentNoticeResult = z.object({ paid: z.boolean() });
export type PaymentNoticeResult = z.infer<typeof PaymentNoticeResult>;

export const AdminPrintSummary = z.object({
  realName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  orderNum: z.string(),
  orderCreateTime: z.string(),
  /** Paid items not printed yet. */
  payNoPrint: z.number().int(),
  extract: z.number().int(),
  payment: z.number().int(),
  creator: z.string(),
  totalFen: z.number().int(),
  payStatus: z.number().int(),
  /** The invoice's title when the reader asked for one (may be empty in old orders); null when not. */
  invoiceTitle: z.string().nullable(),
});
export type AdminPrintSummary = z.infer<typeof AdminPrintSummary>;

export const AdminPrintQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  realName: z.string().trim().max(50).optional(),
  phone: z.string().trim().max(20).optional(),
  email: z.string().trim().max(100).optional(),
  extract: z.enum(['0', '1']).optional(),
});
export type AdminPrintQuery = z.infer<typeof AdminPrintQuery>;

export const BatchRequest = z.object({
  ids: z.array(z.number().int()).min(1, MSG.selectAtLeastOne).max(PRINT_SELECT_MAX, MSG.printSelectTooMany),
});
export type BatchRequest = z.infer<typeof BatchRequest>;
export const ExpressRequest = BatchRequest.extend({
  expressNumber: z.string().trim().max(50).default(''),
});
export type ExpressRequest = z.input<typeof ExpressRequest>;

export const PrintedResult = z.object({
  message: z.string(),
  /** The print-ready PDF of the printed pages, with a cover sheet per order. */
  pdfUrl: z.string(),
  pages: z.number().int(),
});
export type PrintedResult = z.infer<typeof PrintedResult>;

/** One entry of the desk's log of an order: who did what, when. */
export const PrintLogEntry = z.object({
  action: z.string(),
  item_ids: z.string(),
  detail: z.string().nullable(),
  created_at: z.string(),
  actor: z.string().nullable(),
});
export type PrintLogEntry = z.infer<typeof PrintLogEntry>;

/** A print-ready PDF's `:name`. */
export const PrintPdfParams = z.object({ name: z.string().max(40) });
export type PrintPdfParams = z.infer<typeof PrintPdfParams>;

export const Notification = z.object({
  id: z.number().int(),
  text: z.string(),
  link: z.string().nullable(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof Notification>;
