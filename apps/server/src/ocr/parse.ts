import { OcrJson } from '@guji/shared';

/** The stored OCR JSON of a page, or undefined when there is none or it does not parse. */
export function parseOcr(raw: string | null): OcrJson | undefined {
  if (!raw) return undefined;
  try {
    const parsed = OcrJson.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
