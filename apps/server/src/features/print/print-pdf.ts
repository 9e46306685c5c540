import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { EXTRACT_LABELS, PAYMENT_LABELS, yuan } from '@guji/shared';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { sheetSvg, type DownloadService } from '../personal/download.service.ts';
import type { ItemRow } from './print-item.repository.ts';
import type { PrintRepositories } from './print.repository.ts';
import { NOT_FOUND } from './print-rules.ts';

const A4 = [595.28, 841.89] as const;
const A3 = [841.89, 1190.55] as const;

/**
 * The print-ready PDF of the items the desk prints (DATA_DIR/print/<random>.pdf): each order's pages
 * after a cover sheet (order number, reader, pickup, payment, items), every page stamped with its order,
 * title and page number, on A4 or A3 as ordered, landscape pages on landscape paper.
 */
export class PrintPdf {
  constructor(
    private readonly print: PrintRepositories,
    private readonly catalogRepo: CatalogRepository,
    private readonly downloads: DownloadService,
    private readonly dataDir: string,
  ) {}

  /** Makes the file; returns its name. */
  async make(itemIds: number[]): Promise<string> {
    const items = await this.print.items.list({ ids: itemIds }, 'byOrder');
    const pdf = await PDFDocument.create();
    pdf.setTitle('打印订单');
    const byOrder = new Map<number, ItemRow[]>();
    for (const item of items) byOrder.set(item.order_id!, [...(byOrder.get(item.order_id!) ?? []), item]);
    for (const [orderId, list] of byOrder) {
      const order = await this.print.orders.orderForCover(orderId);
      const lines = [
        `打印订单 ${order.order_num}`,
        `读者：${order.real_name ?? order.nick_name ?? order.login_name}  ${order.phone ?? ''}`,
        `取件：${EXTRACT_LABELS[order.extract] ?? ''}${order.extract === 1 ? `  ${order.consignee ?? ''} ${order.consignee_phone ?? ''} ${order.delivery_address ?? ''}` : ''}`,
        `支付：${PAYMENT_LABELS[order.payment] ?? ''}  合计 ¥${yuan(order.total_fen)}  本次打印 ${list.length} 页`,
        `发票：${order.is_invoice ? (order.invoice_title ?? '') : '不需要'}`,
        '',
        ...list.map(
          (item, i) =>
            `${i + 1}. 《${item.title}》${item.volume_name} 第 ${item.seq} 页  ${item.directory_name ?? ''}  ${item.paper_size}`,
        ),
      ];
      const cover = await sharp(Buffer.from(await sheetSvg(lines, 1240, 1754, 30)))
        .jpeg({ quality: 90 })
        .toBuffer();
      const coverImage = await pdf.embedJpg(cover);
      pdf.addPage([...A4]).drawImage(coverImage, { x: 0, y: 0, width: A4[0], height: A4[1] });
      for (const item of list) {
        const page = await this.catalogRepo.findPage(item.page_id);
        if (!page) continue;
        const size = item.paper_size === 'A3' ? A3 : A4;
        const jpeg = await pdf.embedJpg(
          await this.downloads.stampedJpeg(page, 2400, `${order.order_num} · ${item.title} · ${item.seq}`),
        );
        // Landscape pages on landscape paper; fitted inside a 1 cm margin, centred.
        const landscape = jpeg.width > jpeg.height;
        const [pw, ph] = landscape ? [size[1], size[0]] : [size[0], size[1]];
        const margin = 28.35;
        const scale = Math.min((pw - 2 * margin) / jpeg.width, (ph - 2 * margin) / jpeg.height);
        const w = jpeg.width * scale;
        const h = jpeg.height * scale;
        pdf.addPage([pw, ph]).drawImage(jpeg, { x: (pw - w) / 2, y: (ph - h) / 2, width: w, height: h });
      }
    }
    const dir = path.join(this.dataDir, 'print');
    await fs.mkdir(dir, { recursive: true });
    const name = `${randomBytes(12).toString('hex')}.pdf`;
    await fs.writeFile(path.join(dir, name), await pdf.save());
    return name;
  }

  /** The path of a file made earlier; its name must be one `make` gives. */
  async path(name: string): Promise<string> {
    if (!/^[0-9a-f]{24}\.pdf$/.test(name)) throw NOT_FOUND();
    const file = path.join(this.dataDir, 'print', name);
    await fs.access(file).catch(() => {
      throw NOT_FOUND();
    });
    return file;
  }
}
