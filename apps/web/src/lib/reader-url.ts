/** The address of the reader (spec §2: /Book?catalogId&fascicleId&directoryId&imageId). */

export interface ReaderLocation {
  catalogId: number;
  fascicleId?: number | null;
  directoryId?: number | null;
  imageId?: number | null;
  /** A searched text to frame on the page (from a full-text or in-book search hit). */
  highlight?: string | null;
}

/** The /Book path for a location; parameters that are not set are left out. */
export function readerPath(location: ReaderLocation): string {
  const params = new URLSearchParams({ catalogId: String(location.catalogId) });
  if (location.fascicleId != null) params.set('fascicleId', String(location.fascicleId));
  if (location.directoryId != null) params.set('directoryId', String(location.directoryId));
  if (location.imageId != null) params.set('imageId', String(location.imageId));
  if (location.highlight) params.set('hl', location.highlight);
  return `/Book?${params.toString()}`;
}

/** A positive whole number from a query parameter, or null. */
export function positiveId(raw: string | null | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw.trim())) return null;
  const value = Number(raw.trim());
  return value >= 1 ? value : null;
}

/** The reader's query parameters; catalogId is null when missing or malformed. */
export function parseReaderParams(params: URLSearchParams): {
  catalogId: number | null;
  fascicleId: number | null;
  directoryId: number | null;
  imageId: number | null;
  highlight: string | null;
} {
  return {
    highlight: params.get('hl')?.slice(0, 50) || null,
    catalogId: positiveId(params.get('catalogId')),
    fascicleId: positiveId(params.get('fascicleId')),
    directoryId: positiveId(params.get('directoryId')),
    imageId: positiveId(params.get('imageId')),
  };
}
