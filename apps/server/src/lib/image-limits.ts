/**
 * Ceiling for decoding a stored master (OCR, pyramids, downloads), in pixels: masters stored before
 * the upload cap was lowered may be this large. New images are held to UPLOAD_MAX_PIXELS (default
 * DEFAULT_UPLOAD_MAX_PIXELS, features/import/ingest-types.ts) when they arrive.
 */
export const MAX_PAGE_PIXELS = 200_000_000;
