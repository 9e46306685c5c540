import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DIALECTS, type TestContext } from '../../../test/helpers.ts';
import type { BookCondition } from './book-search.repository.ts';

describe.each(DIALECTS)('advanced book search on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    const cat = t.context.repos.catalog;
    const add = (title: string, fields: Record<string, unknown> = {}) =>
      cat.createBook({ title, is_visible: 1, is_open: 1, ...fields }, t.context.database.db);
    await add('論語集注', { author: '朱熹', call_number: 'A-1', coverage_dynasty: '宋刻本' });
    await add('孟子集注', { author: '朱熹', call_number: 'A-2', coverage_dynasty: '明刻本' });
    await add('論語', { author: '孔子弟子', call_number: 'B-1', coverage_dynasty: '宋刻本' });
    await add('詩經', { author: 'Anon', call_number: 'C-1', coverage_dynasty: '清抄本' });
    await add('隱藏論語', { author: '朱熹', is_visible: 0 });
  });
  afterAll(async () => t.close());

  const titles = async (conditions: Array<[BookCondition['field'], string, 'and' | 'or']>, exact = false) => {
    const result = await t.context.repos.catalog.advancedSearch({
      conditions: conditions.map(([field, value, join]) => ({ field, value, join })),
      exact,
      visibleOnly: true,
      offset: 0,
      limit: 10,
    });
    return { total: result.total, titles: result.rows.map((b) => b.title) };
  };

  it('matches substrings (fuzzy), folding simplified and traditional in titles', async () => {
    expect(await titles([['title', '论语', 'and']])).toEqual({ total: 2, titles: ['論語集注', '論語'] });
    expect(await titles([['author', '朱', 'and']])).toEqual({ total: 2, titles: ['論語集注', '孟子集注'] });
    expect(await titles([['author', 'anon', 'and']])).toEqual({ total: 1, titles: ['詩經'] });
  });

  it('matches whole fields in exact mode', async () => {
    expect(await titles([['title', '论语', 'and']], true)).toEqual({ total: 1, titles: ['論語'] });
    expect(await titles([['call_number', 'A', 'and']], true)).toEqual({ total: 0, titles: [] });
    expect(await titles([['call_number', 'a-1', 'and']], true)).toEqual({ total: 1, titles: ['論語集注'] });
  });

  it('joins rows left to right with AND and OR, skipping empty rows', async () => {
    expect(
      await titles([
        ['title', '論語', 'and'],
        ['coverage_dynasty', '宋', 'and'],
      ]),
    ).toEqual({ total: 2, titles: ['論語集注', '論語'] });
    expect(
      await titles([
        ['author', '朱熹', 'and'],
        ['coverage_dynasty', '明', 'and'],
      ]),
    ).toEqual({ total: 1, titles: ['孟子集注'] });
    expect(
      await titles([
        ['author', '朱熹', 'and'],
        ['coverage_dynasty', '明', 'and'],
        ['title', '詩', 'or'],
      ]),
    ).toEqual({ total: 2, titles: ['孟子集注', '詩經'] });
    expect(
      await titles([
        ['title', '詩', 'and'],
        ['author', '', 'and'],
      ]),
    ).toEqual({ total: 1, titles: ['詩經'] });
  });

  it('takes % and _ literally', async () => {
    expect((await titles([['call_number', '_', 'and']])).total).toBe(0);
    expect((await titles([['call_number', '%', 'and']])).total).toBe(0);
  });
});
