import type { UpdateBookRequest } from '@guji/shared';

/** The values of the staff forms of a book's catalogue record (著录 in the console, 编辑 on its page). */
export interface BookFields {
  title: string;
  author: string | null;
  publishDynasty: string | null;
  editionType: string | null;
  coverageDynasty: string | null;
  callNumber: string | null;
  /** Left undefined when the book has no class, so the chooser shows its placeholder. */
  classCode: string | undefined;
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

/** Form values as the request body (a new book's or an edit's): text trimmed, an emptied field cleared. */
export function toUpdateRequest(fields: BookFields): UpdateBookRequest & { title: string } {
  return {
    title: fields.title.trim(),
    author: blankToNull(fields.author),
    publishDynasty: blankToNull(fields.publishDynasty),
    editionType: blankToNull(fields.editionType),
    coverageDynasty: blankToNull(fields.coverageDynasty),
    callNumber: blankToNull(fields.callNumber),
    classCode: fields.classCode ?? null,
    notes: blankToNull(fields.notes),
    actualVolume: fields.actualVolume ?? null,
    bookNumber: fields.bookNumber ?? null,
    isVisible: fields.isVisible,
    isOpen: fields.isOpen,
  };
}

/** A record's stored values as the form's (an unclassified book shows the placeholder, not a blank). */
export function toBookFields(book: Omit<BookFields, 'classCode'> & { classCode: string | null }): BookFields {
  // (Every field is named so that what a record carries besides them stays out of the form.)
  return {
    title: book.title,
    author: book.author,
    publishDynasty: book.publishDynasty,
    editionType: book.editionType,
    coverageDynasty: book.coverageDynasty,
    callNumber: book.callNumber,
    classCode: book.classCode ?? undefined,
    notes: book.notes,
    actualVolume: book.actualVolume,
    bookNumber: book.bookNumber,
    isVisible: book.isVisible,
    isOpen: book.isOpen,
  };
}
