import { describe, expect, it } from 'vitest';
import { bookCitationOf, canvasUriOf, citationOf, permalinkOf } from './citation.ts';

const cited = {
  siteName: '古籍数字图书馆',
  origin: 'https://guji.example.org',
  book: { catalogId: 7, title: '論語', callNumber: 'DEMO-經-001' },
  volume: { fascicleId: 12, name: '卷一' },
  page: { imageId: 345, pageNumber: 3 },
  date: new Date(2026, 10, 25, 9, 30),
};

const full = {
  ...cited,
  book: {
    ...cited.book,
    title: '論語集注',
    author: '朱熹',
    publishDynasty: '宋',
    coverageDynasty: '清同治十年金陵書局刻本',
  },
  page: { ...cited.page, name: '第三葉' },
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

  it('names the period, the author, the edition and the leaf where the catalogue records them', () => {
    expect(citationOf(full)).toBe(
      '〔宋〕朱熹：《論語集注》（DEMO-經-001），清同治十年金陵書局刻本，卷一，第 3 页（第三葉）。古籍数字图书馆，' +
        'https://guji.example.org/Book?catalogId=7&fascicleId=12&imageId=345' +
        '（IIIF：https://guji.example.org/iiif/presentation/volumes/12/canvas/345），访问于 2026-11-25。',
    );
    // A page named by its scan's number names no leaf.
    expect(citationOf({ ...full, page: { ...full.page, name: '0003' } })).toContain('第 3 页。');
    expect(citationOf({ ...full, book: { ...full.book, author: null } })).toMatch(/^〔宋〕《論語集注》/);
    // An author recorded with the dynasty in brackets is not given it twice.
    expect(citationOf({ ...full, book: { ...full.book, author: '（宋）朱熹撰' } })).toMatch(
      /^（宋）朱熹撰：《論語集注》/,
    );
  });
});

describe('citing a book', () => {
  it('gives the book, the site, the book page’s permalink and the access date', () => {
    expect(bookCitationOf(full)).toBe(
      '〔宋〕朱熹：《論語集注》（DEMO-經-001），清同治十年金陵書局刻本。古籍数字图书馆，' +
        'https://guji.example.org/SearchPage/7，访问于 2026-11-25。',
    );
    expect(bookCitationOf(cited)).toBe(
      '《論語》（DEMO-經-001）。古籍数字图书馆，https://guji.example.org/SearchPage/7，访问于 2026-11-25。',
    );
  });
});
