import fs from 'node:fs';
import path from 'node:path';
import { crc32, createDeflateRaw } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { pageImage } from '../../../test/catalog-factory.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeZip } from '../../../test/zip.ts';
import { BOOK, ownClient, ownUsers } from './own-test-kit.ts';

/** A PNG whose header says 30 000 × 30 000 pixels (no need to hold the pixels to test the refusal). */
function hugePngHeader(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(30_000, 0);
  ihdr.writeUInt32BE(30_000, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(0)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** 1 GB of zeros, deflated (about 1 MB), with its size and CRC: a zip bomb entry. */
async function gigabyteOfZeros(): Promise<{ data: Buffer; size: number; crc: number }> {
  const zeros = Buffer.alloc(1024 * 1024);
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  let crc = 0;
  for (let i = 0; i < 1024; i++) {
    crc = crc32(zeros, crc);
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  await new Promise((resolve) => deflate.end(resolve));
  return { data: Buffer.concat(chunks), size: 1024 ** 3, crc };
}

describe.each(DIALECTS)('own volume uploads over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let bob: string;
  const as = (cookie: string) => ownClient(h, cookie);

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ alice, bob } = await ownUsers(h));
  });
  afterAll(async () => h.close());

  it('uploads a volume as a zip of images in natural order; every attack is refused and leaves nothing', async () => {
    const a = as(alice);
    const book = (await a.post('/api/own/books', BOOK)).json<{ catalogId: number }>();
    expect((await a.post(`/api/own/books/${book.catalogId}/volumes`, { name: '' })).json()).toMatchObject({
      message: MSG.ownVolumeNameRequired,
    });
    await a.post(`/api/own/books/${book.catalogId}/volumes`, { name: '卷一', introduction: '' });
    const [volume] = (await a.get(`/api/own/books/${book.catalogId}/volumes`)).json<
      Array<{ fascicleId: number }>
    >();
    const url = `/api/own/volumes/${volume!.fascicleId}/zip`;
    const png = await pageImage(1, 300, 200);
    const mastersBefore = () => {
      const dir = path.join(h.context.config.dataDir, 'masters');
      return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
    };

    const refusals: Array<[string, string, Buffer, RegExp | string]> = [
      ['not a zip', 'pages.rar', makeZip({ '1.png': png }), MSG.ownZipOnly],
      ['a ../ entry', 'pages.zip', makeZip({ '../evil.png': png }), /指向包外/],
      ['an absolute path', 'pages.zip', makeZip({ '/etc/evil.png': png }), /指向包外/],
      [
        'a symlink entry',
        'pages.zip',
        makeZip({ 'link.png': '/etc/passwd' }, { symlinks: ['link.png'] }),
        /符号链接/,
      ],
      [
        '10 000 entries',
        'pages.zip',
        makeZip(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`${i}.png`, 'x']))),
        /文件数超过/,
      ],
      ['a text file', 'pages.zip', makeZip({ '1.png': png, 'readme.txt': 'hi' }), /readme\.txt/],
      [
        'a non-image renamed .jpg',
        'pages.zip',
        makeZip({ '1.png': png, 'fake.jpg': 'not an image' }),
        /fake\.jpg/,
      ],
      ['a 30 000 × 30 000 PNG', 'pages.zip', makeZip({ 'huge.png': hugePngHeader() }), /huge\.png/],
    ];
    const bomb = await gigabyteOfZeros();
    refusals.push([
      'a 1 GB-unpacked bomb',
      'pages.zip',
      makeZip({ 'bomb.png': bomb.data }, { deflated: { 'bomb.png': bomb } }),
      /超过上限|过大/,
    ]);
    const before = mastersBefore();
    for (const [what, name, data, expected] of refusals) {
      const response = await a.upload(url, name, data);
      expect(response.statusCode, what).toBe(400);
      const text = response.json<{ message: string }>().message;
      if (typeof expected === 'string') expect(text, what).toBe(expected);
      else expect(text, what).toMatch(expected);
    }
    expect((await a.get(`/api/own/books/${book.catalogId}/volumes`)).json()).toMatchObject([
      { imageCount: 0 },
    ]);
    expect(mastersBefore()).toBe(before);

    // Bob cannot upload into Alice's volume.
    expect((await as(bob).upload(url, 'pages.zip', makeZip({ '1.png': png }))).statusCode).toBe(404);

    const good = makeZip({
      'scans/10.png': await pageImage(10),
      'scans/2.png': await pageImage(2),
      'scans/1.png': await pageImage(1),
      '__MACOSX/._1.png': '',
    });
    const uploaded = await a.upload(url, 'pages.zip', good);
    expect(uploaded.json()).toMatchObject({
      added: 3,
      names: ['scans/1.png', 'scans/2.png', 'scans/10.png'],
      message: MSG.ownUploaded,
    });
    const pages = await h.context.repos.catalog.listPages(volume!.fascicleId);
    expect(pages.map((p) => p.name)).toEqual(['1', '2', '10']);
  });

  it('quotas: an upload past the page or storage quota is refused with a clear message and changes nothing', async () => {
    const a = as(alice);
    const book = (await a.post('/api/own/books', { ...BOOK, title: '配額' })).json<{ catalogId: number }>();
    await a.post(`/api/own/books/${book.catalogId}/volumes`, { name: '卷一' });
    const [volume] = (await a.get(`/api/own/books/${book.catalogId}/volumes`)).json<
      Array<{ fascicleId: number }>
    >();
    const url = `/api/own/volumes/${volume!.fascicleId}/zip`;
    const zip = makeZip({ '1.png': await pageImage(1), '2.png': await pageImage(2) });
    const settings = h.context.services.settings;
    const used = await h.context.database.db
      .selectFrom('pages')
      .innerJoin('books', 'books.id', 'pages.book_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('books.owner_id', 'is not', null)
      .executeTakeFirstOrThrow();
    await settings.update({ ownQuotaPages: Number(used.n) + 1 });
    expect((await a.upload(url, 'p.zip', zip)).json()).toMatchObject({
      message: MSG.ownQuotaPages.replace('{n}', String(Number(used.n) + 1)),
    });
    await settings.update({ ownQuotaPages: 2000, ownQuotaMb: 0 });
    expect((await a.upload(url, 'p.zip', zip)).json()).toMatchObject({
      message: MSG.ownQuotaBytes.replace('{n}', '0'),
    });
    expect((await a.get(`/api/own/books/${book.catalogId}/volumes`)).json()).toMatchObject([
      { imageCount: 0 },
    ]);
    await settings.update({ ownQuotaMb: 1024 });
    expect((await a.upload(url, 'p.zip', zip)).json()).toMatchObject({ added: 2 });
  });
});
