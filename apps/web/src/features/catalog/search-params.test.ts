import { describe, expect, it } from 'vitest';
import { queryString } from '@guji/shared';
import { bookSearchQuery, excerpt, parseSearchParams, searchPath } from './search-params.ts';

describe('search address', () => {
  it('reads title, classCode and page with defaults', () => {
    expect(parseSearchParams(new URLSearchParams(''))).toEqual({ title: '', classCode: '', page: 1 });
    expect(parseSearchParams(new URLSearchParams('title=%20论语%20&classCode=JING&page=3'))).toEqual({
      title: '论语',
      classCode: 'JING',
      page: 3,
    });
    expect(parseSearchParams(new URLSearchParams('page=0')).page).toBe(1);
    expect(parseSearchParams(new URLSearchParams('page=abc')).page).toBe(1);
  });

  it('writes only what differs from the defaults', () => {
    expect(searchPath({})).toBe('/SearchPage');
    expect(searchPath({ title: '  ', classCode: '', page: 1 })).toBe('/SearchPage');
    expect(searchPath({ title: '论语' })).toBe(`/SearchPage?title=${encodeURIComponent('论语')}`);
    expect(searchPath({ title: 'a b', classCode: 'JING.LUNYU', page: 2 })).toBe(
      '/SearchPage?title=a+b&classCode=JING.LUNYU&page=2',
    );
  });

  it('round-trips', () => {
    const state = { title: '史记&索隐', classCode: 'SHI', page: 4 };
    const url = new URL(`http://x${searchPath(state)}`);
    expect(parseSearchParams(url.searchParams)).toEqual(state);
  });

  it('asks the API for one page of the given size', () => {
    expect(queryString(bookSearchQuery({ title: '', classCode: '', page: 2 }, 6))).toBe(
      '?pageNum=2&pageSize=6',
    );
    expect(queryString(bookSearchQuery({ title: '诗', classCode: 'JI', page: 1 }, 6))).toBe(
      `?pageNum=1&pageSize=6&title=${encodeURIComponent('诗')}&classCode=JI`,
    );
  });
});

describe('introduction teaser', () => {
  it('keeps short texts whole', () => {
    expect(excerpt('  短文\n介绍 ', 120)).toEqual({ text: '短文 介绍', truncated: false });
  });

  it('cuts long texts by code point with an ellipsis', () => {
    const text = '𠀀'.repeat(5) + '汉'.repeat(10);
    const result = excerpt(text, 6);
    expect(result.truncated).toBe(true);
    expect(result.text).toBe('𠀀𠀀𠀀𠀀𠀀汉…');
  });
});
