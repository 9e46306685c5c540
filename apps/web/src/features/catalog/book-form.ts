import type { UpdateBookRequest } from '@guji/shared';

/** The values of the staff edit form of a book. */
export interface BookFields {
  title: string;
  author: string | null;
  publishDynasty: string | null;
  coverageDynasty: string | null;
  callNumber: string | null;
  notes: string | null;
  actualVolume: number | null;
  bookNumber: number | null;
  isVisible: boolean;
  isOpen: boolean;
}

/** A text field as saved: trimmed, and an emptied field cleared (null). */
export const blankToNull = (value: string | null | undefined): string | null => {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? null : trimmed;
};

/** Form values as the PATCH body: text trimmed, an emptied field cleared (null). */
export function toUpdateRequest(fields: BookFields): UpdateBookRequest {
  return {
    title: fields.title.trim(),
    author: blankToNull(fields.author),
    publishDynasty: blankToNull(fields.publishDynasty),
    coverageDynasty: blankToNull(fields.coverageDynasty),
    callNumber: blankToNull(fields.callNumber),
    notes: blankToNull(fields.notes),
    actualVolume: fields.actualVolume ?? null,
    bookNumber: fields.bookNumber ?? null,
    isVisible: fields.isVisible,
    isOpen: fields.isOpen,
  };
}
