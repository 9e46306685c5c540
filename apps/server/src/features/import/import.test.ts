import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, GOOD_PASSWORD, multipartFile, type HttpHarness } from '../../../test/http.ts';
import { pageImage } from '../../../test/catalog-factory.ts';
import { makeZip } from '../../../test/zip.ts';
import { parseCsv, parseCsvMetadata } from './package-metadata.ts';
import { runCli } from '../../cli/cli.ts';
import { makeReader } from '../../../test/factories.ts';

const metadata = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    sourceKey: 'lib:001',
    title: '詩經集傳',
    author: '朱熹',
    callNumber: 'S-001',
    isOpen: true,
    volumes: [
      {
        name: '卷一',
        images: 'v1',
        directory: [
          { name: '周南', page: 1 },
          { name: '召南', page: 3 },
        ],
      },
      { name: '卷二', images: 'v2' },
    ],
    ...overrides,
  });

describe.each(DIALECTS)('importing books on %s', (dialect) => {
  let h: HttpHarness;
  let staff: string;
  let reader: string;
  let pngs: Buffer[];
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    await h.context.services.auth.upsertAccount({
      loginName: 'importer',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    staff = (await h.login('importer', GOOD_PASSWORD)).cookie;
    reader = (await makeReader(h, 'plainreader')).cookie;
    pngs = await Promise.all([0, 1, 2, 3].map((i) => pageImage(i)));
  });
  afterAll(async () => h.close());

  const upload = (zip: Buffer, cookie = staff, name = 'package.zip') => {
    const { payload, contentType } = multipartFile('file', name, zip, 'application/zip');
    return h.request({
      method: 'POST',
      url: '/api/admin/import',
      cookie,
      payload,
      headers: { 'content-type': contentType },
    });
  };
  const bookCount = async () =>
    (await h.context.repos.catalog.searchBooks({ visibleOnly: false, offset: 0, limit: 100 })).total;

  it('imports a package with volumes in natural file order and a directory, then replaces it on re-import', async () => {
    const files = {
      'metadata.json': metadata(),
      'v1/10.png': pngs[2]!,
      'v1/2.png': pngs[1]!,
      'v1/1.png': pngs[0]!,
      'v2/a.jpg.txt': 'not an image',
      'v2/1.png': pngs[3]!,
    };
    const first = await upload(makeZip(files));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ books: [{ title: '詩經集傳', pages: 4 }] });
    const bookId = first.json<{ books: Array<{ bookId: number }> }>().books[0]!.bookId;
    const volumes = await h.context.repos.catalog.listVolumes(bookId);
    expect(volumes.map((v) => [v.name, v.image_count])).toEqual([
      ['卷一', 3],
      ['卷二', 1],
    ]);
    const pages = await h.context.repos.catalog.listPages(volumes[0]!.id);
    expect(pages.map((p) => p.master_key.split('/').pop())).toEqual(['0001.png', '0002.png', '0003.png']);
    const directory = await h.context.repos.catalog.listDirectory(volumes[0]!.id);
    expect(directory.map((d) => [d.name, d.page_seq])).toEqual([
      ['周南', 1],
      ['召南', 3],
    ]);
    const jobs = await h.context.repos.jobs.countByStatus();
    expect(jobs.queued).toBeGreaterThanOrEqual(4);

    const before = await bookCount();
    const again = await upload(
      makeZip({ ...files, 'metadata.json': metadata({ title: '詩經集傳（重印）' }) }),
    );
    expect(again.statusCode).toBe(200);
    expect(await bookCount()).toBe(before);
    expect((await h.context.repos.catalog.findBookBySourceKey('lib:001'))?.title).toBe('詩經集傳（重印）');
  });

  it('refuses a zip with a path leaving the package, and imports nothing', async () => {
    const before = await bookCount();
    const response = await upload(
      makeZip({
        'metadata.json': metadata({ sourceKey: 'lib:evil' }),
        'v1/1.png': pngs[0]!,
        '../../evil.png': pngs[1]!,
        'v2/1.png': pngs[0]!,
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'IMPORT_UNSAFE_PATH',
      message: expect.stringContaining('../../evil.png') as unknown,
    });
    expect(await bookCount()).toBe(before);
    await expect(fs.access(path.join(h.context.config.dataDir, '..', 'evil.png'))).rejects.toThrow();
  });

  it('refuses a broken image in the last volume with its file name, and imports nothing', async () => {
    const before = await bookCount();
    const response = await upload(
      makeZip({
        'metadata.json': metadata({ sourceKey: 'lib:broken' }),
        'v1/1.png': pngs[0]!,
        'v1/2.png': pngs[1]!,
        'v1/3.png': pngs[2]!,
        'v2/1.png': Buffer.concat([
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
          Buffer.from('broken bytes here'),
        ]),
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe('v2/1.png：图像已损坏，无法读取');
    expect(await bookCount()).toBe(before);
    expect(await h.context.repos.catalog.findBookBySourceKey('lib:broken')).toBeUndefined();
  });

  it('names the field of a metadata error, and a directory page beyond the images', async () => {
    const noTitle = await upload(
      makeZip({ 'metadata.json': metadata({ title: '' }), 'v1/1.png': pngs[0]!, 'v2/1.png': pngs[0]! }),
    );
    expect(noTitle.json()).toMatchObject({ message: 'metadata.json（字段 title）：请填写书名' });
    const badPage = await upload(
      makeZip({
        'metadata.json': metadata({ sourceKey: 'lib:pages' }),
        'v1/1.png': pngs[0]!,
        'v2/1.png': pngs[0]!,
      }),
    );
    expect(badPage.json<{ message: string }>().message).toContain('页码 3 超过图像数 1');
    expect((await upload(makeZip({ 'readme.txt': 'x' }))).json()).toMatchObject({
      message: '包中缺少 metadata.json 或 metadata.csv',
    });
    expect((await upload(Buffer.from('not a zip'))).json()).toMatchObject({ code: 'IMPORT_ZIP' });
  });

  it('lets only catalogue staff import', async () => {
    expect((await upload(makeZip({ 'metadata.json': metadata() }), reader)).statusCode).toBe(403);
  });

  it("writes the upload's audit record with the import: when it cannot be written, the book is not imported", async () => {
    const files = (sourceKey: string) =>
      makeZip({
        'metadata.json': metadata({ sourceKey }),
        'v1/1.png': pngs[0]!,
        'v1/2.png': pngs[1]!,
        'v1/3.png': pngs[2]!,
        'v2/1.png': pngs[3]!,
      });
    const audit = async () =>
      (await h.context.repos.audit.page({ action: 'book.import', offset: 0, limit: 100 })).rows;
    const before = { books: await bookCount(), records: (await audit()).length };
    const spy = vi
      .spyOn(h.context.services.admin, 'record')
      .mockRejectedValueOnce(new Error('audit log unavailable'));
    try {
      expect((await upload(files('lib:unrecorded'), staff, 'unrecorded.zip')).statusCode).toBe(500);
      expect(await h.context.repos.catalog.findBookBySourceKey('lib:unrecorded')).toBeUndefined();
      expect(await bookCount()).toBe(before.books);
      expect(await audit()).toHaveLength(before.records);

      const imported = await upload(files('lib:recorded'), staff, 'recorded.zip');
      expect(imported.statusCode).toBe(200);
      const bookId = imported.json<{ books: Array<{ bookId: number }> }>().books[0]!.bookId;
      const records = await audit();
      expect(records).toHaveLength(before.records + 1);
      expect(records[0]).toMatchObject({ target: 'recorded.zip' });
      expect(JSON.parse(records[0]!.after!)).toEqual({ books: [{ title: '詩經集傳', bookId, pages: 4 }] });
    } finally {
      spy.mockRestore();
    }
  });

  it('imports from a CSV file and folders on disk with the import command, safely re-run', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'guji-import-'));
    await fs.mkdir(path.join(dir, 'a1'));
    await fs.mkdir(path.join(dir, 'a2'));
    await fs.writeFile(path.join(dir, 'a1', '1.png'), pngs[0]!);
    await fs.writeFile(path.join(dir, 'a1', '2.png'), pngs[1]!);
    await fs.writeFile(path.join(dir, 'a2', '1.png'), pngs[2]!);
    await fs.writeFile(
      path.join(dir, 'books.csv'),
      'sourceKey,title,author,isOpen,volumeName,images,directory\ncsv:1,大學章句,朱熹,1,卷一,a1,經一章:1|傳十章:2\ncsv:1,大學章句,朱熹,1,卷二,a2,\n',
    );
    const logs: string[] = [];
    const log = console.log;
    console.log = (line: string) => logs.push(line);
    try {
      expect(await runCli(['import', path.join(dir, 'books.csv')], h.context.config)).toBe(0);
      expect(await runCli(['import', path.join(dir, 'books.csv')], h.context.config)).toBe(0);
    } finally {
      console.log = log;
    }
    expect(logs[0]).toMatch(/已导入《大學章句》/);
    const book = await h.context.repos.catalog.findBookBySourceKey('csv:1');
    expect((await h.context.repos.catalog.listVolumes(book!.id)).map((v) => v.image_count)).toEqual([2, 1]);
    await fs.rm(dir, { recursive: true, force: true });
  });
});

describe('CSV metadata', () => {
  it('reads quoted fields with commas, quotes and new lines', () => {
    expect(parseCsv('a,"b,c","d ""e""","f\ng"\r\n1,2,3,4')).toEqual([
      ['a', 'b,c', 'd "e"', 'f\ng'],
      ['1', '2', '3', '4'],
    ]);
  });
  it('skips a byte-order mark and refuses malformed quoting with the line it is on', () => {
    expect(parseCsv('\uFEFFsourceKey,title\r\nk,書\r\n')).toEqual([
      ['sourceKey', 'title'],
      ['k', '書'],
    ]);
    expect(() => parseCsvMetadata('sourceKey,title,volumeName,images\nk,"書,卷一,v1\n', 'b.csv')).toThrow(
      'b.csv（第 2 行）：CSV 格式错误，引号未闭合',
    );
    expect(() => parseCsvMetadata('sourceKey,title,volumeName,images\nk,"書"經,卷一,v1\n', 'b.csv')).toThrow(
      'b.csv（第 2 行）：CSV 格式错误，右引号后不应紧跟其他字符',
    );
  });
  it('names the row and column of an error', () => {
    expect(() => parseCsvMetadata('sourceKey,title,volumeName,images\nk,,卷一,v1\n', 'b.csv')).toThrow(
      'b.csv（第 2 行，字段 title）：请填写书名',
    );
    expect(() =>
      parseCsvMetadata('sourceKey,title,volumeName,images,isOpen\nk,書,卷一,v1,maybe\n', 'b.csv'),
    ).toThrow('b.csv（第 2 行，字段 isOpen）：应为 1 或 0');
    expect(() => parseCsvMetadata('title\n', 'b.csv')).toThrow('b.csv：缺少列 sourceKey、volumeName、images');
    expect(() =>
      parseCsvMetadata('sourceKey,title,volumeName,images,directory\nk,書,卷一,v1,序言\n', 'b.csv'),
    ).toThrow('“序言”应为 名称:页码');
  });
});
