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
export const PAY_STATUS_LABELS: Record<number, string> = { 0: '未支付', 1: '已支付' };
export const PRINT_STATUS_LABELS: Record<number, string> = { 0: '未打印', 1: '已打印' };

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

/** The answer of the payment-status poll: `data` is the text 'paid' when done (spec §7). */
export const PayStatus = z.object({ data: z.enum(['paid', 'unpaid']) });

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
});
export type AdminPrintSummary = z.infer<typeof AdminPrintSummary>;

export const AdminPrintQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  realName: z.string().trim().max(50).optional(),
  phone: z.string().trim().max(20).optional(),
  email: z.string().trim().max(100).optional(),
  extract: z.enum(['0', '1']).optional(),
});

export const BatchRequest = z.object({
  ids: z.array(z.number().int()).min(1, MSG.selectAtLeastOne).max(PRINT_SELECT_MAX, MSG.printSelectTooMany),
});
export const ExpressRequest = BatchRequest.extend({
  expressNumber: z.string().trim().max(50).default(''),
});

export const PrintedResult = z.object({
  message: z.string(),
  /** The print-ready PDF of the printed pages, with a cover sheet per order. */
  pdfUrl: z.string(),
  pages: z.number().int(),
});

export const Notification = z.object({
  id: z.number().int(),
  text: z.string(),
  link: z.string().nullable(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof Notification>;
