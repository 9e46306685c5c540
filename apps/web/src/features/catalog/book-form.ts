import type { UpdateBookRequest } from '@guji/shared';

/** The values of the staff edit form of a book. */
export interface BookFields {
  title: string;
  author: string | null;
  publishDynasty: string | null;
  coverageDynasty: string | null;
  callNumber: string | null;
  actualVolume: number | null;
  bookNumber: number | null;
  isVisible: boolean;
  isOpen: boolean;
}

/** Form values as the PATCH body: text trimmed, an emptied field cleared (null). */
export function toUpdateRequest(fields: BookFields): UpdateBookRequest {
  const text = (value: string | null | undefined) => {
    const trimmed = (value ?? '').trim();
    return trimmed === '' ? null : trimmed;
  };
  return {
    title: fields.title.trim(),
    author: text(fields.author),
    publishDynasty: text(fields.publishDynasty),
    coverageDynasty: text(fields.coverageDynasty),
    callNumber: text(fields.callNumber),
    actualVolume: fields.actualVolume ?? null,
    bookNumber: fields.bookNumber ?? null,
    isVisible: fields.isVisible,
    isOpen: fields.isOpen,
  };
}
