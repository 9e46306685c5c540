import type { FastifyReply, FastifyRequest } from 'fastify';
import { catalogApi, urlOf, type CitationQuery } from '@guji/shared';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { documentOrigin } from '../../http/document-origin.ts';
import { citationHead, type CitationFormat } from './citation-formats.ts';
import { VISITOR, type CitationService, type CitedWork } from './citation.service.ts';

/** A positive whole number from an address (as the web app's reader-url.ts reads it), or undefined. */
function positiveId(raw: string | null): number | undefined {
  if (!raw || !/^\d{1,15}$/.test(raw.trim())) return undefined;
  const value = Number(raw.trim());
  return value >= 1 && Number.isSafeInteger(value) ? value : undefined;
}

/**
 * What a page address cites: /SearchPage/{catalogId} the book, /Book?catalogId&fascicleId&imageId the
 * volume or page the reader opens; any other page nothing.
 */
export function citedByAddress(url: string): { catalogId: number; query: CitationQuery } | null {
  const parsed = new URL(url, 'http://page.invalid');
  const detail = /^\/SearchPage\/(\d{1,15})$/.exec(parsed.pathname);
  if (detail) {
    const catalogId = positiveId(detail[1]!);
    return catalogId === undefined ? null : { catalogId, query: {} };
  }
  if (parsed.pathname !== '/Book') return null;
  const catalogId = positiveId(parsed.searchParams.get('catalogId'));
  if (catalogId === undefined) return null;
  const fascicleId = positiveId(parsed.searchParams.get('fascicleId'));
  const imageId = positiveId(parsed.searchParams.get('imageId'));
  return {
    catalogId,
    query: {
      ...(fascicleId !== undefined ? { fascicleId } : {}),
      ...(imageId !== undefined ? { imageId } : {}),
    },
  };
}

/**
 * The citation tags of a served page (issue 18), for reference managers that read the page's HTML
 * (Zotero, Google Scholar). Only what a visitor may see: a hidden, unpublished or unknown book gives
 * none, whoever asks; a volume or page that is not the book's gives the book's tags alone.
 */
export function citationPageHead(
  config: Pick<Config, 'publicOrigin' | 'publicHosts'>,
  citations: CitationService,
) {
  const head = async (request: FastifyRequest, reply: FastifyReply): Promise<string> => {
    const cited = citedByAddress(request.url);
    if (!cited) return '';
    let origin: string;
    try {
      origin = documentOrigin(config, request, reply);
    } catch {
      // A malformed Host: the page is served without absolute links rather than refused.
      return '';
    }
    const work =
      (await visible(() => citations.cite(cited.catalogId, cited.query, VISITOR, origin))) ??
      (Object.keys(cited.query).length
        ? await visible(() => citations.cite(cited.catalogId, {}, VISITOR, origin))
        : undefined);
    if (!work) return '';
    const query = {
      fascicleId: work.volume?.fascicleId,
      imageId: work.page?.imageId,
    };
    const href = (format: CitationFormat) =>
      origin + urlOf(EXPORTS[format], { catalogId: work.catalogId }, query);
    return citationHead(work, href);
  };
  // The page is served without the tags rather than refused when the catalogue cannot be read.
  return (request: FastifyRequest, reply: FastifyReply): Promise<string> =>
    head(request, reply).catch((error: unknown) => {
      request.log.warn({ err: error }, 'citation tags left out of the page');
      return '';
    });
}

const EXPORTS = {
  ris: catalogApi.citationRis,
  bibtex: catalogApi.citationBibtex,
  csl: catalogApi.citationCsl,
} as const;

/** The work, or undefined where the catalogue answers that it is not there (404 or 400). */
async function visible(cite: () => Promise<CitedWork>): Promise<CitedWork | undefined> {
  try {
    return await cite();
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return undefined;
    throw error;
  }
}
