import { describe, expect, it } from 'vitest';
import { canvasUriOf, citationOf, permalinkOf } from './citation.ts';

const cited = {
  siteName: '古籍数字图书馆',
  origin: 'https://guji.example.org',
  book: { catalogId: 7, title: '論語', callNumber: 'DEMO-經-001' },
  volume: { fascicleId: 12, name: '卷一' },
  page: { imageId: 345, pageNumber: 3 },
  date: new Date(2026, 10, 25, 9, 30),
};

describe('citing a page', () => {
  it('links the reader at this page and names the IIIF canvas', () => {
    expect(permalinkOf(cited)).toBe('https://guji.example.org/Book?catalogId=7&fascicleId=12&imageId=345');
    expect(canvasUriOf(cited)).toBe('https://guji.example.org/iiif/presentation/volumes/12/canvas/345');
  });

  it('gives book, call number, volume, page, site, permalink, canvas and the access date', () => {
    expect(citationOf(cited)).toBe(
      '《論語》（DEMO-經-001），卷一，第 3 页。古籍数字图书馆，' +
        'https://guji.example.org/Book?catalogId=7&fascicleId=12&imageId=345' +
        '（IIIF：https://guji.example.org/iiif/presentation/volumes/12/canvas/345），访问于 2026-11-25。',
    );
    expect(citationOf({ ...cited, book: { ...cited.book, callNumber: null } })).toMatch(/^《論語》，卷一/);
  });
});
