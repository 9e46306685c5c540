import { catalogApi } from '@guji/shared';
import { hrefOf } from '../../api/client.ts';

/** One citation download: its label and the export's address. */
export interface CitationExport {
  format: 'ris' | 'bibtex' | 'csl';
  label: string;
  /** Which reference managers read it, for the hint under the label. */
  hint: string;
  href: string;
}

/**
 * The RIS, BibTeX and CSL-JSON downloads of a book, or of one of its pages (the server names the
 * volume, the page, its leaf and the permalink).
 */
export function citationExports(
  catalogId: number,
  place?: { fascicleId: number; imageId: number },
): CitationExport[] {
  const params = { catalogId };
  const query = place ? { fascicleId: place.fascicleId, imageId: place.imageId } : {};
  return [
    {
      format: 'ris',
      label: 'RIS',
      hint: 'EndNote、Zotero、NoteExpress 等',
      href: hrefOf(catalogApi.citationRis, params, query),
    },
    {
      format: 'bibtex',
      label: 'BibTeX',
      hint: 'LaTeX、JabRef、Zotero 等',
      href: hrefOf(catalogApi.citationBibtex, params, query),
    },
    {
      format: 'csl',
      label: 'CSL-JSON',
      hint: 'Zotero、Pandoc、citeproc 等',
      href: hrefOf(catalogApi.citationCsl, params, query),
    },
  ];
}
