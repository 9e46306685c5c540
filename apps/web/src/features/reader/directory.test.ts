import { describe, expect, it } from 'vitest';
import type { DirectoryNode } from '@guji/shared';
import {
  ancestorIds,
  currentEntry,
  entryStartPage,
  findEntry,
  flattenDirectory,
  toTreeData,
} from './directory.ts';

function entry(
  directoryId: number,
  pageNumber: number | null,
  children: DirectoryNode[] = [],
): DirectoryNode {
  return {
    directoryId,
    name: `条目${directoryId}`,
    imageId: pageNumber == null ? null : 1000 + pageNumber,
    pageNumber,
    children,
  };
}

// 卷一 (p1) { 序 (p1), 正文 (p3) { 第一章 (p3), 第二章 (p7) } }, 卷二 (heading without a page) { 跋 (p12) }
const directory: DirectoryNode[] = [
  entry(1, 1, [entry(2, 1), entry(3, 3, [entry(4, 3), entry(5, 7)])]),
  entry(6, null, [entry(7, 12)]),
];

describe('directory', () => {
  it('lists entries in reading order', () => {
    expect(flattenDirectory(directory).map((node) => node.directoryId)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('finds entries by id at any depth', () => {
    expect(findEntry(directory, 5)?.pageNumber).toBe(7);
    expect(findEntry(directory, 99)).toBeNull();
  });

  it('opens a heading without a page at the first page under it', () => {
    expect(entryStartPage(findEntry(directory, 6)!)).toBe(12);
    expect(entryStartPage(findEntry(directory, 3)!)).toBe(3);
    expect(entryStartPage(entry(8, null))).toBeNull();
  });

  it('makes current the entry the page begins with, down through entries starting on the same page', () => {
    expect(currentEntry(directory, 1)?.directoryId).toBe(2);
    expect(currentEntry(directory, 2)?.directoryId).toBe(2);
    expect(currentEntry(directory, 3)?.directoryId).toBe(4);
    expect(currentEntry(directory, 6)?.directoryId).toBe(4);
    expect(currentEntry(directory, 7)?.directoryId).toBe(5);
    expect(currentEntry(directory, 11)?.directoryId).toBe(5);
    expect(currentEntry(directory, 12)?.directoryId).toBe(7);
    expect(currentEntry(directory, 40)?.directoryId).toBe(7);
  });

  it('has no current entry before the first entry or without a directory', () => {
    expect(currentEntry([entry(1, 5)], 2)).toBeNull();
    expect(currentEntry([], 1)).toBeNull();
  });

  it('names the first of several sections starting on a page, not the last (诗经: 关雎, not 卷耳)', () => {
    const shijing = [entry(1, 1, [entry(2, 1), entry(3, 1), entry(4, 1), entry(5, 2)])];
    expect(currentEntry(shijing, 1)?.directoryId).toBe(2);
    expect(currentEntry(shijing, 2)?.directoryId).toBe(5);
  });

  it('does not depend on entries being listed in page order', () => {
    expect(currentEntry([entry(1, 9), entry(2, 2)], 5)?.directoryId).toBe(2);
  });

  it('names the ancestors of an entry, outermost first', () => {
    expect(ancestorIds(directory, 5)).toEqual([1, 3]);
    expect(ancestorIds(directory, 1)).toEqual([]);
    expect(ancestorIds(directory, 99)).toEqual([]);
  });

  it('maps to tree data keyed by directoryId, leaves without children', () => {
    const tree = toTreeData(directory);
    expect(tree[0]?.key).toBe(1);
    expect(tree[0]?.title).toBe('条目1');
    expect(tree[0]?.children?.[0]?.children).toBeUndefined();
    expect(tree[1]?.children?.map((child) => child.key)).toEqual([7]);
  });
});
