import { randomBytes } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { EXTRACT_LABELS, PAYMENT_LABELS, yuan } from '@guji/shared';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { PdfText } from '../../demo/pdf-text.ts';
import type { PageRow } from '../../db/schema.ts';
import { bandOf, drawStampBand, type DownloadService } from '../personal/download.service.ts';
import type { SettingsService } from '../site/settings.service.ts';
import type { FileStorage } from '../../storage/storage.ts';
import type { ItemRow } from './print-item.repository.ts';
import type { PrintRepositories } from './print.repository.ts';
import { NOT_FOUND } from './print-rules.ts';

const A4 = [595.28, 841.89] as const;
const A3 = [841.89, 1190.55] as const;

/** The cover sheet's type: the size of its lines, their pitch and the page margin, in points. */
const COVER = { size: 14.4, pitch: 23, margin: 47.6, titleScale: 1.3 } as const;

/**
 * The print-ready PDF of the items the desk prints (stored as `print/<random>.pdf`): each order's pages
 * after a cover sheet (site, order number, reader, pickup, payment, items), every page stamped with its
 * order, title and page number, on A4 or A3 as ordered, landscape pages on landscape paper. Cover sheets
 * and stamps are real text (`PdfText`), so the file can be searched and its text copied.
 */
export class PrintPdf {
  constructor(
    private readonly print: PrintRepositories,
    private readonly catalogRepo: CatalogRepository,
    private readonly downloads: DownloadService,
    private readonly settings: SettingsService,
    private readonly storage: FileStorage,
  ) {}

  /** Makes the file; returns its name. */
  async make(itemIds: number[]): Promise<string> {
    const items = await this.print.items.list({ ids: itemIds }, 'byOrder');
    const { siteName } = await this.settings.get();
    const pdf = await PDFDocument.create();
    pdf.setTitle('打印订单');
    pdf.setCreator(siteName);
    const byOrder = new Map<number, ItemRow[]>();
    for (const item of items) byOrder.set(item.order_id!, [...(byOrder.get(item.order_id!) ?? []), item]);
    const orders = await Promise.all(
      [...byOrder].map(async ([orderId, list]) => {
        const order = await this.print.orders.orderForCover(orderId);
        return {
          cover: coverLines(siteName, order, list),
          pages: list.map((item) => ({ item, stamp: `${order.order_num} · ${item.title} · ${item.seq}` })),
        };
      }),
    );
    const text = await PdfText.embed(
      pdf,
      orders.flatMap((o) => [...o.cover, ...o.pages.map((p) => p.stamp)]),
    );
    for (const { cover, pages } of orders) {
      drawCover(pdf, text, cover);
      for (const { item, stamp } of pages) {
        const page = await this.catalogRepo.findPage(item.page_id);
        if (!page) continue;
        await this.drawPage(pdf, text, page, item.paper_size === 'A3' ? A3 : A4, stamp);
      }
    }
    const name = `${randomBytes(12).toString('hex')}.pdf`;
    await this.storage.put(`print/${name}`, Buffer.from(await pdf.save()));
    return name;
  }

  /**
   * A page with its stamp band under it, fitted inside a 1 cm margin and centred, landscape pages on
   * landscape paper.
   */
  private async drawPage(
    pdf: PDFDocument,
    text: PdfText,
    page: PageRow,
    size: readonly [number, number],
    stamp: string,
  ): Promise<void> {
    const image = await this.downloads.pageJpeg(page, 2400);
    const jpeg = await pdf.embedJpg(image.data);
    const band = bandOf(image.width).height;
    const landscape = image.width > image.height;
    const [pw, ph] = landscape ? [size[1], size[0]] : [size[0], size[1]];
    const margin = 28.35;
    const scale = Math.min((pw - 2 * margin) / image.width, (ph - 2 * margin) / (image.height + band));
    const w = image.width * scale;
    const h = (image.height + band) * scale;
    const x = (pw - w) / 2;
    const y = (ph - h) / 2;
    const sheet = pdf.addPage([pw, ph]);
    sheet.drawImage(jpeg, { x, y: y + band * scale, width: w, height: image.height * scale });
    drawStampBand(sheet, text, stamp, { x, y, width: w, height: band * scale });
  }

  /** Removes a file made for a print that did not happen. */
  async discard(name: string): Promise<void> {
    await this.storage.delete(`print/${name}`);
  }

  /** A file made earlier; its name must be one `make` gives. */
  async read(name: string): Promise<Buffer> {
    if (!/^[0-9a-f]{24}\.pdf$/.test(name)) throw NOT_FOUND();
    const data = await this.storage.get(`print/${name}`);
    if (!data) throw NOT_FOUND();
    return data;
  }
}

type CoverOrder = Awaited<ReturnType<PrintRepositories['orders']['orderForCover']>>;

/**
 * What an order's cover sheet says, line by line: the site's name, the order's title line (drawn
 * larger), the reader, pickup (and address), payment, invoice, then the items ('' a blank line).
 */
function coverLines(siteName: string, order: CoverOrder, list: ItemRow[]): string[] {
  const post = order.extract === 1;
  return [
    siteName,
    `打印订单 ${order.order_num}`,
    `读者：${order.real_name ?? order.nick_name ?? order.login_name}  ${order.phone ?? ''}`,
    `取件：${EXTRACT_LABELS[order.extract] ?? ''}${post ? `  ${order.consignee ?? ''} ${order.consignee_phone ?? ''}` : ''}`,
    ...(post ? [`地址：${order.delivery_address ?? ''}`] : []),
    `支付：${PAYMENT_LABELS[order.payment] ?? ''}  合计 ¥${yuan(order.total_fen)}  本次打印 ${list.length} 页`,
    `发票：${order.is_invoice ? (order.invoice_title ?? '') : '不需要'}`,
    '',
    ...list.map(
      (item, i) =>
        `${i + 1}. 《${item.title}》${item.volume_name} 第 ${item.seq} 页  ${item.directory_name ?? ''}  ${item.paper_size}`,
    ),
  ];
}

/**
 * A cover sheet on A4: the lines from the top margin down, the order number's line larger, each line
 * wrapped at the right margin; a list longer than a page goes on over further sheets.
 */
function drawCover(pdf: PDFDocument, text: PdfText, lines: string[]): void {
  const { size, pitch, margin, titleScale } = COVER;
  const width = A4[0] - 2 * margin;
  let sheet = pdf.addPage([...A4]);
  let baseline = A4[1] - margin - size;
  lines.forEach((line, i) => {
    const lineSize = i === 1 ? size * titleScale : size;
    for (const part of text.wrap(line, lineSize, width)) {
      if (baseline < margin) {
        sheet = pdf.addPage([...A4]);
        baseline = A4[1] - margin - size;
      }
      text.draw(sheet, part, { x: margin, y: baseline, size: lineSize });
      baseline -= i === 1 ? pitch * titleScale : pitch;
    }
  });
}
