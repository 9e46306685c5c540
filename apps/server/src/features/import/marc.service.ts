/**
 * MARC import and export (issue 18). An import reads the whole file first, then plans every record
 * against the catalogue (new, changed fields, unchanged, errors); the preview shows the plan, and the
 * import writes it in one transaction only when no record is in error, so one bad record changes
 * nothing. The export writes MARCXML of one book or of the catalogue, a batch of books at a time.
 */
import {
  hasHtmlTag,
  isSafeName,
  isSafeText,
  MARC_FIELD_LABELS,
  MARC_FORMATS,
  MSG,
  OWN_STATUS,
  type MarcBookField,
  type MarcFieldChange,
  type MarcFormat,
  type MarcImported,
  type MarcPreview,
  type MarcPreviewRecord,
} from '@guji/shared';
import type { DbOrTx } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import type { BookRow } from '../../db/schema.ts';
import { badRequest, notFound } from '../../errors.ts';
import { slicer } from '../../lib/slices.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { ClassificationRepository } from '../catalog/classification.repository.ts';
import { isCatalogStaff } from '../catalog/access.ts';
import type { Viewer } from '../../lib/viewer.ts';
import type { Auditor } from '../../audit/auditor.ts';
import {
  marcSyntax,
  marcXmlRecord,
  marcXmlHead,
  MARCXML_TAIL,
  readMarcFile,
  type MarcData,
} from './marc-codec.ts';
import {
  bookOfRecord,
  detectFormat,
  OWN_CONTROL,
  recordOfBook,
  type BookForMarc,
  type MarcBook,
} from './marc-mapping.ts';
import type { MarcRepository } from './marc.repository.ts';

const FIELDS = Object.keys(MARC_FIELD_LABELS) as MarcBookField[];
const COLUMN: Record<MarcBookField, keyof BookRow> = {
  title: 'title',
  author: 'author',
  publishDynasty: 'publish_dynasty',
  coverageDynasty: 'coverage_dynasty',
  callNumber: 'call_number',
  classCode: 'class_code',
  bookNumber: 'book_number',
  notes: 'notes',
};
/** Longest value of each field (the catalogue's own limits, as the package import has them). */
const MAX: Record<MarcBookField, number> = {
  title: 200,
  author: 200,
  publishDynasty: 100,
  coverageDynasty: 200,
  callNumber: 100,
  classCode: 60,
  bookNumber: 6,
  notes: 4000,
};
const EXPORT_BATCH = 200;
/** A record's values judged field by field (lengths, characters, the class in the dictionary). */
function checkValues(
  values: MarcBook['values'],
  format: MarcFormat,
  classCode: Map<string, string>,
  error: RecordError,
): void {
  if (!values.title) error(null, `缺少书名（${format === 'marc21' ? '245$a' : '200$a'}）`);
  for (const field of FIELDS) {
    const value = values[field];
    if (value === undefined) continue;
    if ([...value].length > MAX[field]) error(field, `不能超过 ${MAX[field]} 字`);
    else if (field === 'notes' ? !isSafeText(value) : !isSafeName(value)) error(field, MSG.nameUnsafeChars);
    else if (field === 'notes' && hasHtmlTag(value)) error(field, MSG.noHtml);
  }
  if (
    values.bookNumber !== undefined &&
    !(Number(values.bookNumber) >= 1 && Number(values.bookNumber) <= 100000)
  )
    error('bookNumber', '册数应为 1 至 100000 的整数');
  if (values.classCode !== undefined) {
    const code = classCode.get(values.classCode);
    if (code) values.classCode = code;
    else error('classCode', `分类“${values.classCode}”不在分类字典中，请先在分类字典中添加`);
  }
}

/**
 * The book a record updates: the export's own control number, an earlier import's, or the call number
 * (refused when it names more than one book).
 */
function matchBook(
  book: MarcBook,
  values: MarcBook['values'],
  { byId, byKey, byCall }: { byId: BookRow[]; byKey: BookRow[]; byCall: BookRow[] },
  error: RecordError,
): { match: BookRow | undefined; matchedBy: PlannedRecord['matchedBy'] } {
  let match: BookRow | undefined;
  let matchedBy: PlannedRecord['matchedBy'] = null;
  const ownId = Number(OWN_CONTROL.exec(book.controlNumber ?? '')?.[1] ?? NaN);
  match =
    byId.find((b) => b.id === ownId) ?? byKey.find((b) => b.source_key === `marc:${book.controlNumber}`);
  if (match) matchedBy = 'controlNumber';
  else if (values.callNumber) {
    const same = byCall.filter((b) => b.call_number === values.callNumber);
    if (same.length > 1)
      error(
        'callNumber',
        `索书号“${values.callNumber}”对应多部古籍（编号 ${same.map((b) => b.id).join('、')}），无法确定更新哪一部`,
      );
    else if (same[0]) {
      match = same[0];
      matchedBy = 'callNumber';
    }
  }
  return { match, matchedBy };
}

/** Records an error of the record, on one of its fields or on the whole. */
type RecordError = (field: MarcBookField | null, message: string) => void;

/** The control number the export gives a book that did not come from a MARC record. */

interface PlannedRecord extends MarcPreviewRecord {
  values: MarcBook['values'];
  sourceKey: string | null;
}

const valueOf = (row: BookRow, field: MarcBookField): string | null => {
  const value = row[COLUMN[field]];
  return value === null || value === undefined || value === '' ? null : String(value);
};

export class MarcService {
  constructor(
    private readonly marc: MarcRepository,
    private readonly catalog: CatalogRepository,
    private readonly classes: ClassificationRepository,
    private readonly auditor: Auditor,
    private readonly transact: Transact,
  ) {}

  /** What importing the file would do, record by record; nothing is written. */
  async preview(data: Buffer, format: MarcFormat | 'auto'): Promise<MarcPreview> {
    const read = await this.read(data, format);
    const planned = await this.plan(read.records, read.format);
    return {
      format: read.format,
      syntax: read.syntax,
      counts: countsOf(planned),
      records: planned.map(strip),
    };
  }

  /** Imports the file's records: all of them in one transaction, or none when any is in error. */
  async import(
    actorId: number,
    data: Buffer,
    format: MarcFormat | 'auto',
    fileName: string,
  ): Promise<MarcImported> {
    const read = await this.read(data, format);
    return this.transact(async (tx) => {
      const planned = await this.plan(read.records, read.format, tx);
      const bad = planned.filter((r) => r.status === 'error');
      if (bad.length)
        throw badRequest(
          'MARC_RECORD',
          `${bad[0]!.errors[0]}${bad.length > 1 ? `（共 ${bad.length} 条记录有误）` : ''}；文件未导入，目录没有任何改动`,
        );
      const pause = slicer();
      for (const record of planned) {
        await pause();
        await this.write(actorId, record, fileName, tx);
      }
      const counts = countsOf(planned);
      return {
        format: read.format,
        created: counts.new,
        updated: counts.changed,
        unchanged: counts.unchanged,
        message: `已导入 ${MARC_FORMATS[read.format]} 记录 ${planned.length} 条：新增 ${counts.new} 种，修改 ${counts.changed} 种，${counts.unchanged} 种无变化`,
      };
    });
  }

  private async read(data: Buffer, choice: MarcFormat | 'auto') {
    const records = await readMarcFile(data);
    const syntax = marcSyntax(data);
    const detected = records.map(detectFormat).find((f) => f !== null) ?? null;
    if (choice !== 'auto' && detected && detected !== choice)
      throw badRequest(
        'MARC_FORMAT',
        `所选格式为 ${MARC_FORMATS[choice]}，但文件中的记录是 ${MARC_FORMATS[detected]}（${detected === 'marc21' ? '有 245 题名字段' : '有 200 题名字段'}），请重新选择`,
      );
    const format = choice === 'auto' ? detected : choice;
    if (!format)
      throw badRequest('MARC_FORMAT', '无法判断记录格式：记录中没有 245（MARC21）或 200（CNMARC）题名字段');
    return { syntax, records, format };
  }

  private async plan(records: MarcData[], format: MarcFormat, tx?: DbOrTx): Promise<PlannedRecord[]> {
    const pause = slicer();
    const books: MarcBook[] = [];
    for (const record of records) {
      await pause();
      books.push(bookOfRecord(record, format));
    }
    const classes = await this.classes.list(tx);
    const classCode = new Map<string, string>();
    for (const c of classes) classCode.set(c.name, c.code);
    for (const c of classes) classCode.set(c.code, c.code);

    const ownIds = books.flatMap((b) => OWN_CONTROL.exec(b.controlNumber ?? '')?.[1] ?? []).map(Number);
    const keys = books.flatMap((b) => (b.controlNumber ? [`marc:${b.controlNumber}`] : []));
    const calls = books.flatMap((b) => b.values.callNumber ?? []);
    const [byId, byKey, byCall] = await Promise.all([
      this.marc.byIds(ownIds, tx),
      this.marc.bySourceKeys(keys, tx),
      this.marc.byCallNumbers(calls, tx),
    ]);
    const taken = new Map<string, number>();

    return books.map((book, i): PlannedRecord => {
      const index = i + 1;
      const who = `第 ${index} 条记录${book.controlNumber ? `（001 ${book.controlNumber}）` : ''}`;
      const errors: string[] = [];
      const error = (field: MarcBookField | null, message: string) =>
        errors.push(
          `${who}${field ? `，字段 ${book.sources[field] ?? field}（${MARC_FIELD_LABELS[field]}）` : ''}：${message}`,
        );
      const values = { ...book.values };

      checkValues(values, format, classCode, error);

      const { match, matchedBy } = matchBook(book, values, { byId, byKey, byCall }, error);
      const identity = match
        ? `book:${match.id}`
        : values.callNumber
          ? `call:${values.callNumber}`
          : `cn:${book.controlNumber ?? index}`;
      const earlier = taken.get(identity);
      if (earlier !== undefined)
        error(null, `与第 ${earlier} 条记录是同一部古籍，一个文件中每部古籍只能有一条记录`);
      else taken.set(identity, index);

      const changes: MarcFieldChange[] = FIELDS.flatMap((field) => {
        const next = values[field];
        if (next === undefined) return [];
        const old = match ? valueOf(match, field) : null;
        return old === next ? [] : [{ field, old, new: next }];
      });
      const status = errors.length ? 'error' : !match ? 'new' : changes.length ? 'changed' : 'unchanged';
      const sourceKey =
        book.controlNumber && !OWN_CONTROL.test(book.controlNumber) ? `marc:${book.controlNumber}` : null;
      return {
        index,
        controlNumber: book.controlNumber,
        title: values.title ?? null,
        status,
        bookId: errors.length ? null : (match?.id ?? null),
        matchedBy: errors.length ? null : matchedBy,
        changes: errors.length ? [] : changes,
        errors,
        values,
        sourceKey,
      };
    });
  }

  private async write(actorId: number, record: PlannedRecord, fileName: string, tx: DbOrTx) {
    const columns = Object.fromEntries(
      record.changes.map((c) => [COLUMN[c.field], c.field === 'bookNumber' ? Number(c.new) : c.new]),
    );
    const audit = (id: number, before: unknown) =>
      this.auditor.record(
        actorId,
        'book.marc-import',
        `book:${id}`,
        before,
        { file: fileName, ...changed(record, 'new') },
        tx,
      );
    if (record.status === 'new') {
      const id = await this.catalog.createBook(
        {
          source_key: record.sourceKey,
          title: record.values.title!,
          ...columns,
          owner_id: null,
          audit_status: OWN_STATUS.published,
          // A catalogue record has no images yet: hidden until staff add them and show it.
          is_visible: 0,
          is_open: 0,
        },
        tx,
      );
      await audit(id, null);
    } else if (record.status === 'changed') {
      await this.catalog.updateBook(record.bookId!, columns, tx);
      await audit(record.bookId!, changed(record, 'old'));
    }
  }

  /** One book's record as a MARCXML document, for whoever may see the book. */
  async exportBook(
    bookId: number,
    viewer: Viewer,
    format: MarcFormat,
    /** The site's origin, for the links to the digitised copy. */
    base: string,
  ): Promise<{ body: string; fileName: string }> {
    const book = await this.catalog.findBook(bookId);
    const owner = book?.owner_id !== null && book?.owner_id === viewer.userId;
    const visible = book?.is_visible === 1 && book.audit_status === OWN_STATUS.published;
    if (!book || book.is_lonely === 1 || (!visible && !owner && !isCatalogStaff(viewer.roles)))
      throw notFound(MSG.noData, 'NO_DATA');
    const body = `${marcXmlHead(format)}${marcXmlRecord(recordOfBook(forMarc(book, base), format), format)}\n${MARCXML_TAIL}`;
    return { body, fileName: `book-${bookId}-${format}.xml` };
  }

  /** The catalogue as a MARCXML collection, a batch of books at a time; hidden books for staff only. */
  async *exportCatalogue(viewer: Viewer, format: MarcFormat, base: string): AsyncGenerator<string> {
    const visibleOnly = !isCatalogStaff(viewer.roles);
    yield marcXmlHead(format);
    let after = 0;
    for (;;) {
      const rows = await this.marc.exportBatch(after, EXPORT_BATCH, visibleOnly);
      if (rows.length === 0) break;
      yield rows
        .map((row) => `${marcXmlRecord(recordOfBook(forMarc(row, base), format), format)}\n`)
        .join('');
      after = rows.at(-1)!.id;
    }
    yield MARCXML_TAIL;
  }
}

function forMarc(row: BookRow, base: string): BookForMarc {
  return {
    controlNumber: row.source_key?.startsWith('marc:') ? row.source_key.slice(5) : `GUJI-${row.id}`,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    links: {
      page: `${base}/SearchPage/${row.id}`,
      iiif: `${base}/iiif/presentation/books/${row.id}/collection.json`,
    },
    title: row.title,
    author: row.author,
    publishDynasty: row.publish_dynasty,
    coverageDynasty: row.coverage_dynasty,
    callNumber: row.call_number,
    classCode: row.class_code,
    bookNumber: row.book_number,
    notes: row.notes,
  };
}

const changed = (record: PlannedRecord, side: 'old' | 'new') =>
  Object.fromEntries(record.changes.map((c) => [c.field, c[side]]));

function countsOf(records: PlannedRecord[]): MarcPreview['counts'] {
  const counts = { new: 0, changed: 0, unchanged: 0, error: 0 };
  for (const r of records) counts[r.status] += 1;
  return counts;
}

function strip({ values: _values, sourceKey: _key, ...record }: PlannedRecord): MarcPreviewRecord {
  return record;
}
