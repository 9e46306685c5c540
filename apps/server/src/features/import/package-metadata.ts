/** An import package's metadata file (JSON or CSV): its schema and readers; errors name file, row, field. */
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { isSafeName, MSG } from '@guji/shared';
import { badRequest } from '../../errors.ts';

/** A directory entry of a volume as the metadata names it (page numbers from 1). */
export interface DirectoryInput {
  name: string;
  page?: number | null | undefined;
  children?: DirectoryInput[] | undefined;
}
const DirectoryInput: z.ZodType<DirectoryInput> = z.lazy(() =>
  z.object({
    name: z.string().trim().min(1, '目录名称不能为空').refine(isSafeName, MSG.nameUnsafeChars),
    page: z.number().int().min(1, '目录页码从 1 开始').nullable().optional(),
    children: z.array(DirectoryInput).optional(),
  }),
);

/** A catalogue field of a package: no control, bidi-override or invisible characters, no `<` `>`. */
const safeText = (max: number) => z.string().trim().max(max).refine(isSafeName, MSG.nameUnsafeChars);

const VolumeInput = z.object({
  name: z.string().trim().min(1, '请填写卷册名称').refine(isSafeName, MSG.nameUnsafeChars),
  introduction: z.string().trim().optional(),
  /** Folder of this volume's images, relative to the metadata file (or the zip's root). */
  images: z.string().trim().min(1, '请填写图像目录'),
  directory: z.array(DirectoryInput).default([]),
});

const BookInput = z.object({
  sourceKey: z.string().trim().min(1, '请填写 sourceKey（用于重复导入时识别同一部书）').max(200),
  title: z.string().trim().min(1, '请填写书名').max(200).refine(isSafeName, MSG.nameUnsafeChars),
  author: safeText(200).optional(),
  publishDynasty: safeText(100).optional(),
  coverageDynasty: safeText(200).optional(),
  editionType: safeText(100).optional(),
  callNumber: safeText(100).optional(),
  classCode: z.string().trim().max(60).optional(),
  isVisible: z.boolean().default(true),
  isOpen: z.boolean().default(false),
  volumes: z.array(VolumeInput).min(1, '至少需要一个卷册'),
});
export type BookInput = z.infer<typeof BookInput>;

const MetadataFile = z.union([BookInput, z.object({ books: z.array(BookInput).min(1) })]);

function zodMessage(file: string, error: z.ZodError, row?: number): string {
  const issue = error.issues[0]!;
  const where = [
    row !== undefined ? `第 ${row} 行` : '',
    issue.path.length ? `字段 ${issue.path.join('.')}` : '',
  ]
    .filter(Boolean)
    .join('，');
  return `${file}${where ? `（${where}）` : ''}：${issue.message}`;
}

/** Reads the books of a JSON metadata file: one book, or `{ books: [...] }`. */
export function parseJsonMetadata(text: string, file: string): BookInput[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw badRequest(
      'IMPORT_METADATA',
      `${file}：不是有效的 JSON（${error instanceof Error ? error.message : ''}）`,
    );
  }
  const parsed = MetadataFile.safeParse(data);
  if (!parsed.success) throw badRequest('IMPORT_METADATA', zodMessage(file, parsed.error));
  return 'books' in parsed.data ? parsed.data.books : [parsed.data];
}

export const CSV_COLUMNS = [
  'sourceKey',
  'title',
  'author',
  'publishDynasty',
  'coverageDynasty',
  'callNumber',
  'classCode',
  'isVisible',
  'isOpen',
  'volumeName',
  'images',
  'directory',
] as const;

/**
 * Reads a CSV metadata file: one row per volume, rows of the same sourceKey form one book (book fields
 * from its first row). `directory` is `名稱:頁碼|名稱:頁碼`; booleans are 1/0 or true/false.
 */
export function parseCsvMetadata(text: string, file: string): BookInput[] {
  const rows = parseCsv(text, file);
  const header = rows.shift();
  if (!header) throw badRequest('IMPORT_METADATA', `${file}：文件为空`);
  const missing = ['sourceKey', 'title', 'volumeName', 'images'].filter((c) => !header.includes(c));
  if (missing.length) throw badRequest('IMPORT_METADATA', `${file}：缺少列 ${missing.join('、')}`);
  const books = new Map<string, { input: Record<string, unknown>; row: number }>();
  rows.forEach((cells, index) => {
    const row = index + 2;
    if (cells.every((c) => c.trim() === '')) return;
    const value = (column: string) => cells[header.indexOf(column)]?.trim() ?? '';
    const bool = (column: string, fallback: boolean) => {
      const text = value(column).toLowerCase();
      if (text === '') return fallback;
      if (['1', 'true', '是'].includes(text)) return true;
      if (['0', 'false', '否'].includes(text)) return false;
      throw badRequest('IMPORT_METADATA', `${file}（第 ${row} 行，字段 ${column}）：应为 1 或 0`);
    };
    const directory = value('directory')
      .split('|')
      .filter(Boolean)
      .map((entry) => {
        const match = /^(.*):(\d+)$/.exec(entry.trim());
        if (!match)
          throw badRequest(
            'IMPORT_METADATA',
            `${file}（第 ${row} 行，字段 directory）：“${entry}”应为 名称:页码`,
          );
        return { name: match[1]!.trim(), page: Number(match[2]) };
      });
    const key = value('sourceKey');
    const volume = { name: value('volumeName'), images: value('images'), directory };
    const existing = books.get(key);
    if (existing) {
      (existing.input.volumes as unknown[]).push(volume);
      return;
    }
    const optional = (column: string) => (value(column) ? { [column]: value(column) } : {});
    books.set(key, {
      row,
      input: {
        sourceKey: key,
        title: value('title'),
        ...optional('author'),
        ...optional('publishDynasty'),
        ...optional('coverageDynasty'),
        ...optional('callNumber'),
        ...optional('classCode'),
        isVisible: bool('isVisible', true),
        isOpen: bool('isOpen', false),
        volumes: [volume],
      },
    });
  });
  if (books.size === 0) throw badRequest('IMPORT_METADATA', `${file}：没有数据行`);
  return [...books.values()].map(({ input, row }) => {
    const parsed = BookInput.safeParse(input);
    if (!parsed.success) throw badRequest('IMPORT_METADATA', zodMessage(file, parsed.error, row));
    return parsed.data;
  });
}

/**
 * The rows of a CSV file (RFC 4180: quoted fields, doubled quotes, CRLF or LF, a byte-order mark), read by
 * csv-parse; rows may differ in length. Malformed CSV (a quote left open, text after a closing quote) is
 * refused with the line it is on.
 */
export function parseCsv(text: string, file = 'CSV'): string[][] {
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false });
  } catch (error) {
    const { code, lines } = error as { code?: string; lines?: number };
    const what =
      code === 'CSV_QUOTE_NOT_CLOSED'
        ? '引号未闭合'
        : code === 'CSV_INVALID_CLOSING_QUOTE'
          ? '右引号后不应紧跟其他字符'
          : '无法解析';
    throw badRequest('IMPORT_METADATA', `${file}${lines ? `（第 ${lines} 行）` : ''}：CSV 格式错误，${what}`);
  }
}
