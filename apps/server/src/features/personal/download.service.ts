import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import sharp, { type Sharp } from 'sharp';
import { MSG, type OcrJson } from '@guji/shared';
import { DRAWING_FONTS, loadGlyphs, type GlyphSet } from '../../demo/fonts.ts';
import { PdfText } from '../../demo/pdf-text.ts';
import { forbidden, notFound, tooMany } from '../../errors.ts';
import { parseOcr } from '../../ocr/parse.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { PageRow } from '../../db/schema.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import type { Viewer } from '../../lib/viewer.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PersonalService } from './personal.service.ts';
import type { SettingsService } from '../site/settings.service.ts';
import { MAX_PAGE_PIXELS } from '../../lib/image-limits.ts';
import type { FileStorage } from '../../storage/storage.ts';

export interface DownloadFile {
  data: Buffer;
  contentType: string;
  /** A file name for Content-Disposition (UTF-8). */
  fileName: string;
}

type Downloader = Viewer & { userId: number; name: string };

/** What DownloadService is built from (wiring/). */
export interface DownloadDeps {
  storage: FileStorage;
  catalogRepo: CatalogRepository;
  catalog: CatalogService;
  personal: PersonalService;
  settings: SettingsService;
  clock: Clock;
  /** Volume PDFs built at once (issue 30 item 10: eight at once by one reader took 330 MB). */
  pdfBuilds?: { perProcess: number; perUser?: number };
}

/**
 * Downloads (issue 5): a page as a JPEG no larger than the site's limit with a line at its foot naming
 * the site, the reader and the date; a page's OCR text; a whole volume as a PDF of such pages when the
 * site allows it. Each obeys the access rule (DESIGN.md §7) and is recorded in the reader's downloads.
 */
export class DownloadService {
  private readonly storage: FileStorage;
  private readonly catalogRepo: CatalogRepository;
  private readonly catalog: CatalogService;
  private readonly personal: PersonalService;
  private readonly settings: SettingsService;
  private readonly clock: Clock;
  /** Volume PDFs built at once (issue 30 item 10: eight at once by one reader took 330 MB). */
  private readonly pdfBuilds: { perProcess: number; perUser?: number };

  constructor(deps: DownloadDeps) {
    this.storage = deps.storage;
    this.catalogRepo = deps.catalogRepo;
    this.catalog = deps.catalog;
    this.personal = deps.personal;
    this.settings = deps.settings;
    this.clock = deps.clock;
    this.pdfBuilds = deps.pdfBuilds ?? { perProcess: 2 };
  }

  /** PDFs being built, in all and per reader. */
  private building = 0;
  private readonly buildingFor = new Map<number, number>();

  /** Runs a PDF build within the limits, or refuses it with 429 and when to try again. */
  private async pdfSlot<T>(userId: number, build: () => Promise<T>): Promise<T> {
    const mine = this.buildingFor.get(userId) ?? 0;
    if (mine >= (this.pdfBuilds.perUser ?? 1))
      throw tooMany('您已有一册 PDF 正在生成，请等它下载完成后再下载下一册', 10);
    if (this.building >= this.pdfBuilds.perProcess)
      throw tooMany('服务器正在为其他读者生成 PDF，请稍后再试', 10);
    this.building += 1;
    this.buildingFor.set(userId, mine + 1);
    try {
      return await build();
    } finally {
      this.building -= 1;
      const left = (this.buildingFor.get(userId) ?? 1) - 1;
      if (left > 0) this.buildingFor.set(userId, left);
      else this.buildingFor.delete(userId);
    }
  }

  async pageImage(viewer: Downloader, pageId: number): Promise<DownloadFile> {
    const { page, book } = await this.catalog.readablePage(pageId, viewer);
    const site = await this.settings.get();
    const data = await this.stampedJpeg(
      page,
      site.downloadMaxSide,
      this.footer(site.siteName, viewer.name, site.timeZone),
    );
    await this.personal.recordDownload(viewer.userId, {
      bookId: book.id,
      volumeId: page.volume_id,
      pageId: page.id,
      kind: 'image',
    });
    return { data, contentType: 'image/jpeg', fileName: `${book.title}-${page.seq}.jpg` };
  }

  async pageText(viewer: Downloader, pageId: number): Promise<DownloadFile> {
    const { page, book } = await this.catalog.readablePage(pageId, viewer);
    const ocr: OcrJson | undefined = parseOcr(page.ocr_json) ?? undefined;
    // One line per column, in reading order.
    const text = ocr
      ? ocr.ocr_res.content.map((line) => line.words.map((w) => w.word).join('')).join('\n')
      : '';
    await this.personal.recordDownload(viewer.userId, {
      bookId: book.id,
      volumeId: page.volume_id,
      pageId: page.id,
      kind: 'text',
    });
    return {
      data: Buffer.from(`${text}\n`, 'utf8'),
      contentType: 'text/plain; charset=utf-8',
      fileName: `${book.title}-${page.seq}.txt`,
    };
  }

  async volumePdf(viewer: Downloader, volumeId: number): Promise<DownloadFile> {
    const site = await this.settings.get();
    if (!site.downloadVolumePdf) throw forbidden(MSG.downloadVolumeOff, 'DOWNLOAD_OFF');
    const volume = await this.catalogRepo.findVolume(volumeId);
    if (!volume) throw notFound(MSG.noData, 'NO_DATA');
    const pages = await this.catalogRepo.listPages(volume.id);
    if (pages.length === 0) throw notFound(MSG.noData, 'NO_DATA');
    // The access rule is the book's: checking the first page checks it for all.
    const { book } = await this.catalog.readablePage(pages[0]!.id, viewer);
    return this.pdfSlot(viewer.userId, () => this.buildPdf(viewer, site, book, volume, pages));
  }

  private async buildPdf(
    viewer: Downloader,
    site: Awaited<ReturnType<SettingsService['get']>>,
    book: { id: number; title: string },
    volume: { id: number; name: string },
    pages: PageRow[],
  ): Promise<DownloadFile> {
    const footer = this.footer(site.siteName, viewer.name, site.timeZone);
    const pdf = await PDFDocument.create();
    pdf.setTitle(`${book.title} ${volume.name}`);
    pdf.setCreator(site.siteName);
    const text = await PdfText.embed(pdf, [footer]);
    // Pages are placed at 150 dpi: a 2400-pixel side prints 40 cm long; the band under each carries the
    // footer as text.
    const side = Math.min(site.downloadMaxSide, 2000);
    const scale = 72 / 150;
    for (const page of pages) {
      const image = await this.pageJpeg(page, side);
      const jpeg = await pdf.embedJpg(image.data);
      const band = bandOf(image.width);
      const width = image.width * scale;
      const height = (image.height + band.height) * scale;
      const sheet = pdf.addPage([width, height]);
      const bandHeight = band.height * scale;
      sheet.drawImage(jpeg, { x: 0, y: bandHeight, width, height: height - bandHeight });
      drawStampBand(sheet, text, footer, { x: 0, y: 0, width, height: bandHeight });
    }
    const data = Buffer.from(await pdf.save());
    await this.personal.recordDownload(viewer.userId, {
      bookId: book.id,
      volumeId: volume.id,
      pageId: null,
      kind: 'pdf',
    });
    return { data, contentType: 'application/pdf', fileName: `${book.title}-${volume.name}.pdf` };
  }

  /** The stamp line: the site, the reader and the day in the library's time zone (not the server's). */
  private footer(siteName: string, user: string, timeZone: string): string {
    const date = new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium', timeZone }).format(this.clock.now());
    return `${siteName} · ${user} · ${date}`;
  }

  /** The page no larger than `maxSide`, as JPEG. */
  async pageJpeg(page: PageRow, maxSide: number): Promise<{ data: Buffer; width: number; height: number }> {
    const { data, info } = await (
      await this.scaled(page, maxSide)
    )
      .jpeg({ quality: 88 })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  }

  /** The page no larger than `maxSide`, with a band at its foot carrying `line`, as JPEG. */
  async stampedJpeg(page: PageRow, maxSide: number, line: string): Promise<Buffer> {
    const { data, info } = await (await this.scaled(page, maxSide)).toBuffer({ resolveWithObject: true });
    const band = bandOf(info.width);
    const svg = await lineSvg(line, info.width, band.height, band.fontSize);
    return sharp(data)
      .extend({ bottom: band.height, background: '#ffffff' })
      .composite([{ input: Buffer.from(svg), left: 0, top: info.height }])
      .jpeg({ quality: 88 })
      .toBuffer();
  }

  /** The master read from its path on local disk, or fetched whole from an object store. */
  private async scaled(page: PageRow, maxSide: number): Promise<Sharp> {
    const input = this.storage.localPath(page.master_key) ?? (await this.storage.get(page.master_key));
    if (!input) throw notFound('页面图像文件不存在', 'PAGE_IMAGE_MISSING');
    return sharp(input, { limitInputPixels: MAX_PAGE_PIXELS })
      .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' });
  }
}

/** The band under a page `width` pixels wide that carries its stamp line: its height and type size. */
export function bandOf(width: number): { height: number; fontSize: number } {
  const height = Math.max(24, Math.round(width * 0.022));
  return { height, fontSize: Math.round(height * 0.6) };
}

/**
 * A stamp band in a PDF, as `lineSvg` draws it under a JPEG: a grey rule at its top and `line` centred,
 * as real text. `box` is in PDF units (y up, its foot at y).
 */
export function drawStampBand(
  page: PDFPage,
  text: PdfText,
  line: string,
  box: { x: number; y: number; width: number; height: number },
): void {
  const size = box.height * 0.6;
  const top = box.y + box.height;
  page.drawLine({
    start: { x: box.x, y: top },
    end: { x: box.x + box.width, y: top },
    thickness: Math.max(0.3, box.height / 40),
    color: rgb(0.6, 0.6, 0.6),
  });
  const x = box.x + Math.max(size * 0.3, (box.width - text.width(line, size)) / 2);
  text.draw(page, line, { x, y: top - box.height / 2 - size * 0.35, size, color: rgb(0.2, 0.2, 0.2) });
}

/**
 * A character's outline at (x, baseline): from the first of the drawing typefaces that has it, or,
 * when none has it, an empty box the size of a character, so a character is never left out unseen.
 */
export function charPath(
  glyphs: GlyphSet,
  ch: string,
  x: number,
  baseline: number,
  fontSize: number,
): string {
  const d = glyphs.pathData(ch, x, baseline, fontSize);
  if (d !== undefined) return d;
  const side = fontSize * 0.8;
  const left = x + fontSize * 0.1;
  const top = baseline - fontSize * 0.85;
  const inner = Math.max(1, fontSize * 0.06);
  // Outer square, then the inner one the other way round: a hollow box under the nonzero fill rule.
  return (
    `M${left} ${top}h${side}v${side}h${-side}Z` +
    `M${left + inner} ${top + inner}v${side - 2 * inner}h${side - 2 * inner}v${-(side - 2 * inner)}Z`
  );
}

/**
 * A line of text as SVG outlines (from the drawing typefaces, so no system font is needed), centred in
 * a band; a character no typeface has is drawn as an empty box.
 */
export async function lineSvg(
  text: string,
  width: number,
  height: number,
  fontSize: number,
): Promise<string> {
  const glyphs = await loadGlyphs(text, DRAWING_FONTS);
  const chars = [...text];
  const advances = chars.map((ch) => (/\s/u.test(ch) ? 0.3 : glyphs.advance(ch)) * fontSize);
  const total = advances.reduce((a, b) => a + b, 0);
  let x = Math.max(4, (width - total) / 2);
  const baseline = height / 2 + fontSize * 0.35;
  const paths: string[] = [];
  chars.forEach((ch, i) => {
    if (!/\s/u.test(ch)) paths.push(`<path d="${charPath(glyphs, ch, x, baseline, fontSize)}"/>`);
    x += advances[i]!;
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="${width}" height="${height}" fill="#ffffff"/>` +
    `<line x1="0" y1="0.5" x2="${width}" y2="0.5" stroke="#999999"/>` +
    `<g fill="#333333">${paths.join('')}</g></svg>`
  );
}
