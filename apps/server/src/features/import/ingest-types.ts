/** What an import brings: books, volumes, pages and directory entries, and the pixel limits of a page. */

/**
 * What a page scan needs: 60 million pixels is a large leaf (about 38 × 28 cm) at 600 dpi, 9000 × 6600.
 * A decoded page costs 3 bytes a pixel (180 MB at the cap) in the OCR engine.
 */
export const DEFAULT_UPLOAD_MAX_PIXELS = 60_000_000;

export interface IngestPage {
  name: string;
  /** Where the image comes from, named in error messages. */
  source: string;
  data: Buffer;
  /** Ground-truth or imported OCR JSON (spec §3), stored as is. */
  ocrJson?: unknown;
}

export interface IngestDirectoryEntry {
  name: string;
  /** 0-based index of the page the entry opens, or null for a heading. */
  pageIndex: number | null;
  children?: IngestDirectoryEntry[];
}

export interface IngestVolume {
  name: string;
  introduction?: string | null;
  pages: IngestPage[];
  directory: IngestDirectoryEntry[];
}

export interface IngestBook {
  /** Stable key: importing the same key again replaces the book instead of adding a second. */
  sourceKey: string;
  title: string;
  author?: string | null;
  publishDynasty?: string | null;
  coverageDynasty?: string | null;
  editionType?: string | null;
  callNumber?: string | null;
  classCode?: string | null;
  isVisible: boolean;
  isOpen: boolean;
  actualVolume?: number | null;
  bookNumber?: number | null;
  /** Queue OCR for the pages that come without text even where OCR_ON_INGEST is off (a book shown for its OCR). */
  alwaysOcr?: boolean;
  volumes: IngestVolume[];
}

/** A book as imported: its id and the ids of its pages, in order. */
export interface ImportedBook {
  bookId: number;
  pageIds: number[];
}
