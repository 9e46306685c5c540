import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DIALECTS, type TestContext } from '../../../test/helpers.ts';

describe.each(DIALECTS)('catalogue repository on %s', (dialect) => {
  let t: TestContext;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await createTestContext(dialect);
    const cat = t.context.repos.catalog;
    const jing = await t.context.repos.classifications.upsert({
      code: 'JING',
      name: '經部',
      parentId: null,
      sort: 0,
    });
    await t.context.repos.classifications.upsert({
      code: 'JING.SISHU',
      name: '四書類',
      parentId: jing,
      sort: 0,
    });
    await t.context.repos.classifications.upsert({
      code: 'JING.SISHU',
      name: '四書類（改）',
      parentId: jing,
      sort: 1,
    });
    const add = async (title: string, fields: Record<string, unknown> = {}) =>
      (ids[title] = await cat.createBook(
        {
          title,
          class_code: 'JING.SISHU',
          is_visible: 1,
          is_open: 1,
          ...fields,
        },
        t.context.database.db,
      ));
    await add('論語集注');
    await add('孟子集注', { is_open: 0, view_count: 5 });
    await add('100% 真本', { class_code: 'JINGXX' });
    await add('隱藏之書', { is_visible: 0 });
    await add('審核中', { audit_status: '1' });
    for (const title of ['論語集注', '孟子集注']) {
      const volume = await cat.createVolume(
        {
          bookId: ids[title]!,
          name: '卷一',
          introduction: null,
          sort: 0,
        },
        t.context.database.db,
      );
      for (let seq = 1; seq <= 2; seq++) {
        await cat.createPage(
          {
            volumeId: volume,
            bookId: ids[title]!,
            seq,
            name: `第${seq}葉`,
            width: 10,
            height: 10,
            masterKey: 'm',
            ocrJson: null,
          },
          t.context.database.db,
        );
      }
    }
  });
  afterAll(async () => t.close());

  it('renames a classification by code instead of duplicating it', async () => {
    const rows = await t.context.repos.classifications.list();
    expect(rows.map((r) => r.name)).toEqual(['經部', '四書類（改）']);
  });

  it('searches by title substring with exact totals, literal % and _, and a class with its children only', async () => {
    const cat = t.context.repos.catalog;
    const page = (search: Parameters<typeof cat.searchBooks>[0]) =>
      cat.searchBooks(search).then((r) => ({ total: r.total, titles: r.rows.map((b) => b.title) }));
    expect(await page({ title: '集注', visibleOnly: true, offset: 0, limit: 1 })).toEqual({
      total: 2,
      titles: ['論語集注'],
    });
    expect(await page({ title: '100%', visibleOnly: true, offset: 0, limit: 10 })).toEqual({
      total: 1,
      titles: ['100% 真本'],
    });
    expect((await page({ title: '0%_', visibleOnly: true, offset: 0, limit: 10 })).total).toBe(0);
    expect(
      (await page({ classCodes: ['JING'], visibleOnly: true, offset: 0, limit: 10 })).titles.sort(),
    ).toEqual(['孟子集注', '論語集注']);
    expect((await page({ visibleOnly: true, offset: 0, limit: 10 })).titles).not.toContain('隱藏之書');
    expect((await page({ visibleOnly: true, offset: 0, limit: 10 })).titles).not.toContain('審核中');
    expect((await page({ visibleOnly: false, offset: 0, limit: 10 })).total).toBe(5);
  });

  it('folds simplified and traditional forms, and keeps the search key in step with the title', async () => {
    const cat = t.context.repos.catalog;
    const find = async (title: string) =>
      (await cat.searchBooks({ title, visibleOnly: false, offset: 0, limit: 10 })).rows.map((b) => b.title);
    expect(await find('论语')).toEqual(['論語集注']);
    expect(await find('論语集')).toEqual(['論語集注']);
    expect(await find('语 集')).toEqual(['論語集注']);
    // A book of this test's own, renamed and deleted (the others stay as the other tests expect them).
    const own = await cat.createBook(
      { title: '待改名之書', is_visible: 0, is_open: 0 },
      t.context.database.db,
    );
    await cat.updateBook(own, { title: '四書章句' }, t.context.database.db);
    expect(await find('四书')).toEqual(['四書章句']);
    expect(await find('待改名')).toEqual([]);
    await cat.deleteBook(own, t.context.database.db);
    expect(await find('四书')).toEqual([]);
  });

  it('lists the most-read visible books that have volumes, with page counts and covers', async () => {
    const cat = t.context.repos.catalog;
    const hot = await cat.hotBooks(0, 8);
    expect(hot.rows.map((b) => b.title)).toEqual(['孟子集注', '論語集注']);
    expect(hot.total).toBe(2);
    await cat.incrementViews(ids['論語集注']!);
    expect((await cat.findBook(ids['論語集注']!))?.view_count).toBe(1);
    const volumes = await cat.listVolumes(ids['論語集注']!);
    expect(volumes.map((v) => v.image_count)).toEqual([2]);
    const covers = await cat.coverPageIds([ids['論語集注']!, ids['孟子集注']!, ids['100% 真本']!]);
    expect(covers.size).toBe(2);
    expect((await cat.coverPage(ids['論語集注']!))?.seq).toBe(1);
  });

  it('knows privileges only within their dates, and which books are public to IIIF clients', async () => {
    const cat = t.context.repos.catalog;
    const userId = await t.context.repos.users.create(
      { login_name: 'priv', password_hash: 'h' },
      ['reader'],
      t.context.database.db,
    );
    await cat.grantPrivilege(
      userId,
      ids['孟子集注']!,
      '2026-01-01T00:00:00.000Z',
      '2026-01-02T00:00:00.000Z',
    );
    expect(await cat.hasActivePrivilege(userId, ids['孟子集注']!, '2026-01-01T12:00:00.000Z')).toBe(true);
    expect(await cat.hasActivePrivilege(userId, ids['孟子集注']!, '2026-01-03T00:00:00.000Z')).toBe(false);
    expect(await cat.hasActivePrivilege(userId, ids['論語集注']!, '2026-01-01T12:00:00.000Z')).toBe(false);
    expect((await cat.publicBooks()).map((entry) => entry.book.title)).toEqual(['論語集注']);
    await cat.addFootprint(userId, ids['論語集注']!, null);
    expect(await cat.countFootprints(userId)).toBe(1);
  });

  it('deletes a book with its volumes and pages', async () => {
    const cat = t.context.repos.catalog;
    const bookId = await cat.createBook(
      { title: '將刪之書', is_visible: 0, is_open: 0 },
      t.context.database.db,
    );
    const volumeId = await cat.createVolume(
      { bookId, name: '卷一', introduction: null, sort: 0 },
      t.context.database.db,
    );
    const pageId = await cat.createPage(
      {
        volumeId,
        bookId,
        seq: 1,
        name: '第1葉',
        width: 10,
        height: 10,
        masterKey: 'm',
        ocrJson: null,
      },
      t.context.database.db,
    );
    await cat.deleteBook(bookId, t.context.database.db);
    expect(await cat.findBook(bookId)).toBeUndefined();
    expect(await cat.listVolumes(bookId)).toEqual([]);
    expect(await cat.findPage(pageId)).toBeUndefined();
  });

  it('names the section a page begins with: the first of those starting on it, else the one running on', async () => {
    const cat = t.context.repos.catalog;
    const bookId = await cat.createBook({ title: '詩經', is_visible: 1, is_open: 1 }, t.context.database.db);
    const volumeId = await cat.createVolume(
      { bookId, name: '卷一', introduction: null, sort: 0 },
      t.context.database.db,
    );
    const pages: number[] = [];
    for (let seq = 1; seq <= 3; seq++)
      pages.push(
        await cat.createPage(
          {
            volumeId,
            bookId,
            seq,
            name: `${seq}`,
            width: 10,
            height: 10,
            masterKey: `m/${seq}`,
            ocrJson: null,
          },
          t.context.database.db,
        ),
      );
    const add = (name: string, parentId: number | null, page: number | null, sort: number) =>
      cat.createDirectoryEntry(
        {
          volumeId,
          bookId,
          parentId,
          name,
          pageId: page === null ? null : pages[page - 1]!,
          sort,
        },
        t.context.database.db,
      );
    const zhounan = await add('周南', null, 1, 0);
    await add('關雎', zhounan, 1, 1);
    await add('葛覃', zhounan, 1, 2);
    await add('卷耳', zhounan, 1, 3);
    await add('樛木', zhounan, 2, 4);
    expect((await cat.directoryEntryAt(volumeId, 1))?.name).toBe('關雎');
    expect((await cat.directoryEntryAt(volumeId, 2))?.name).toBe('樛木');
    expect((await cat.directoryEntryAt(volumeId, 3))?.name).toBe('樛木');
  });
});
