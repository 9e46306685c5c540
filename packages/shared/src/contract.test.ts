import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract, pathOf, queryString, urlOf } from './contract.ts';

describe('route contracts on the calling side', () => {
  const search = contract({
    method: 'GET',
    path: '/api/books/:id/pages/:seq',
    summary: 'test',
    tags: ['test'],
    query: z.object({ text: z.string().optional(), ids: z.array(z.number()).optional() }),
    response: z.object({ ok: z.boolean() }),
  });

  it('fills path parameters in, encoded as path segments', () => {
    expect(pathOf(search.path, { id: 7, seq: '上/下' })).toBe('/api/books/7/pages/%E4%B8%8A%2F%E4%B8%8B');
  });

  it('refuses a missing path parameter instead of calling a wrong URL', () => {
    expect(() => pathOf(search.path, { id: 7 })).toThrow('缺少路径参数 seq');
  });

  it('writes the query out, leaving empty values out and repeating arrays', () => {
    expect(queryString({ text: '论语 学而', empty: '', none: null, gone: undefined, ids: [1, 2] })).toBe(
      '?text=%E8%AE%BA%E8%AF%AD%20%E5%AD%A6%E8%80%8C&ids=1&ids=2',
    );
    expect(queryString({})).toBe('');
    expect(urlOf(search, { id: 1, seq: 2 }, { text: 'a' })).toBe('/api/books/1/pages/2?text=a');
  });
});
