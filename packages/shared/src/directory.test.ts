import { describe, expect, it } from 'vitest';
import { directoryEntryOfPage, type DirectoryPoint } from './directory.ts';

const e = (id: number, parentId: number | null, page: number | null): DirectoryPoint => ({
  id,
  parentId,
  page,
});

describe('the directory entry of a page', () => {
  // 诗经: 国风 (p1) › 周南 (p1) › 关雎 (p1), 葛覃 (p1), 卷耳 (p1), 樛木 (p2); 召南 (p4) › 鹊巢 (p4)
  const shijing = [
    e(1, null, 1),
    e(2, 1, 1),
    e(3, 2, 1),
    e(4, 2, 1),
    e(5, 2, 1),
    e(6, 2, 2),
    e(7, 1, 4),
    e(8, 7, 4),
  ];

  it('is the section the page begins with, not the last one starting on it', () => {
    expect(directoryEntryOfPage(shijing, 1)?.id).toBe(3);
    expect(directoryEntryOfPage(shijing, 2)?.id).toBe(6);
    expect(directoryEntryOfPage(shijing, 4)?.id).toBe(8);
  });

  it('continues the section started last on an earlier page', () => {
    expect(directoryEntryOfPage(shijing, 3)?.id).toBe(6);
    expect(directoryEntryOfPage(shijing, 9)?.id).toBe(8);
    // Three poems start on page 1 and none on page 2 of another book: page 2 continues the third.
    expect(directoryEntryOfPage([e(1, null, 1), e(2, null, 1), e(3, null, 1)], 2)?.id).toBe(3);
  });

  it('goes down through headings without a page of their own', () => {
    const book = [e(1, null, null), e(2, 1, 3), e(3, 2, 3), e(4, 1, 5)];
    expect(directoryEntryOfPage(book, 3)?.id).toBe(3);
    expect(directoryEntryOfPage(book, 4)?.id).toBe(3);
    expect(directoryEntryOfPage(book, 5)?.id).toBe(4);
  });

  it('has none before the first entry, or without a directory', () => {
    expect(directoryEntryOfPage([e(1, null, 5)], 2)).toBeNull();
    expect(directoryEntryOfPage([], 1)).toBeNull();
  });
});
