import type { FastifyRequest } from 'fastify';
import { viewerOf } from '../../http/session.ts';
import type { CatalogService } from './catalog.service.ts';
import { citedByAddress } from './citation-page.ts';

/** Widths of the early page image the browser chooses from (CSS px × device pixels), and the page's own. */
const WIDTHS = [400, 600, 800, 1000, 1200, 1600, 2000, 2400, 3200];

/**
 * Where the reader puts its image pane (apps/web: reader.css and the header, toolbar and title above
 * it), as index.html's early-image script places it: from 1280 px 125.5625 px from the top, from 768 px
 * 165.5625 px (the toolbar takes two rows), and on a phone the whole width.
 */
const PANE_TOP = { wide: 125.5625, middle: 165.5625 };

/**
 * The reader's first page image, asked for by the browser before anything else (issue 32 part 4): on a
 * /Book address with an imageId, for a signed-in reader who may read that page of that book, a
 * `<link rel="preload" as="image">` with the page's image at a ladder of widths and the width it will be
 * shown at when fitted (`imagesizes`, never less than that: the pane's height times the page's aspect on
 * wide screens, the screen's width on phones). index.html's script shows that image where the pane will
 * be while the application loads. Nothing for a visitor, another mode or zoom in the address, a page of
 * another book or one the reader may not read.
 */
export function readerImageHead(catalog: Pick<CatalogService, 'readablePage'>) {
  return async (request: FastifyRequest): Promise<string> => {
    if (!request.user) return '';
    const view = new URL(request.url, 'http://page.invalid').searchParams;
    if (view.has('mode') || view.has('zoom')) return '';
    // The reader's address read as the citation tags read it: only /Book names a page.
    const cited = citedByAddress(request.url);
    const imageId = cited?.query.imageId;
    if (!cited || imageId === undefined) return '';
    const found = await catalog.readablePage(imageId, viewerOf(request)).catch(() => undefined);
    if (!found || found.book.id !== cited.catalogId || found.page.width <= 0 || found.page.height <= 0)
      return '';
    const { width, height } = found.page;
    const widths = [...WIDTHS.filter((w) => w < width), width];
    const srcset = widths.map((w) => `/iiif/3/${imageId}/full/${w},/0/default.jpg ${w}w`).join(', ');
    const aspect = (width / height).toFixed(4);
    const sizes = [
      '(max-width: 767px) 100vw',
      `(max-width: 1279px) calc((100vh - ${PANE_TOP.middle}px) * ${aspect})`,
      `calc((100vh - ${PANE_TOP.wide}px) * ${aspect})`,
    ].join(', ');
    return (
      `<link rel="preload" as="image" id="reader-preview-image" data-image-id="${imageId}" ` +
      `fetchpriority="high" imagesrcset="${srcset}" imagesizes="${sizes}">`
    );
  };
}
