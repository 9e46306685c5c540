import { z } from 'zod';

/** The two cataloguing formats of MARC import and export (issue 18). */
export const MARC_FORMATS = { marc21: 'MARC21', cnmarc: 'CNMARC' } as const;
export const MarcFormat = z.enum(['marc21', 'cnmarc']);
export type MarcFormat = z.infer<typeof MarcFormat>;

/** The book fields a MARC record fills, with the console's names for them (docs/import.md has the mapping). */
export const MARC_FIELD_LABELS = {
  title: '书名',
  author: '著者',
  publishDynasty: '朝代',
  coverageDynasty: '版本',
  callNumber: '索书号',
  classCode: '分类',
  bookNumber: '册数',
  notes: '附注',
} as const;
export const MarcBookField = z.enum([
  'title',
  'author',
  'publishDynasty',
  'coverageDynasty',
  'callNumber',
  'classCode',
  'bookNumber',
  'notes',
]);
export type MarcBookField = z.infer<typeof MarcBookField>;

/** What an import does with a record: add a book, change one, leave one as it is, or refuse the file. */
export const MARC_RECORD_STATUS = {
  new: '新增',
  changed: '修改',
  unchanged: '无变化',
  error: '错误',
} as const;
export const MarcRecordStatus = z.enum(['new', 'changed', 'unchanged', 'error']);
export type MarcRecordStatus = z.infer<typeof MarcRecordStatus>;

/** The largest MARC file the console takes (also checked by the server). */
export const MARC_MAX_FILE_BYTES = 20 * 1024 * 1024;

export const MarcImportQuery = z.object({
  /** `auto` reads the format from the records (245 is MARC21, 200 is CNMARC). */
  format: z.enum(['auto', 'marc21', 'cnmarc']).default('auto'),
});
export type MarcImportQuery = z.infer<typeof MarcImportQuery>;

export const MarcExportQuery = z.object({ format: MarcFormat.default('marc21') });
export type MarcExportQuery = z.infer<typeof MarcExportQuery>;

export const MarcFieldChange = z.object({
  field: MarcBookField,
  /** The book's value now; null when empty (and for a new book). */
  old: z.string().nullable(),
  new: z.string().nullable(),
});
export type MarcFieldChange = z.infer<typeof MarcFieldChange>;

export const MarcPreviewRecord = z.object({
  /** The record's place in the file, from 1. */
  index: z.number().int(),
  /** The record's 001. */
  controlNumber: z.string().nullable(),
  title: z.string().nullable(),
  status: MarcRecordStatus,
  /** The book it updates (null for a new one or a record in error). */
  bookId: z.number().int().nullable(),
  /** What the record matched by: its 001, its call number, or nothing. */
  matchedBy: z.enum(['controlNumber', 'callNumber']).nullable(),
  changes: z.array(MarcFieldChange),
  errors: z.array(z.string()),
});
export type MarcPreviewRecord = z.infer<typeof MarcPreviewRecord>;

export const MarcPreview = z.object({
  format: MarcFormat,
  syntax: z.enum(['iso2709', 'marcxml']),
  counts: z.object({
    new: z.number().int(),
    changed: z.number().int(),
    unchanged: z.number().int(),
    error: z.number().int(),
  }),
  records: z.array(MarcPreviewRecord),
});
export type MarcPreview = z.infer<typeof MarcPreview>;

export const MarcImported = z.object({
  format: MarcFormat,
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  message: z.string(),
});
export type MarcImported = z.infer<typeof MarcImported>;
