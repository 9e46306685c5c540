import type { TreeDataNode } from 'antd';
import { directoryEntryOfPage, type DirectoryNode, type DirectoryPoint } from '@guji/shared';

/** Every entry of a directory tree in reading order (pre-order). */
export function flattenDirectory(nodes: readonly DirectoryNode[]): DirectoryNode[] {
  const result: DirectoryNode[] = [];
  const visit = (list: readonly DirectoryNode[]) => {
    for (const node of list) {
      result.push(node);
      visit(node.children);
    }
  };
  visit(nodes);
  return result;
}

/** The entry with this id, or null. */
export function findEntry(nodes: readonly DirectoryNode[], directoryId: number): DirectoryNode | null {
  return flattenDirectory(nodes).find((node) => node.directoryId === directoryId) ?? null;
}

/**
 * The page an entry opens: its own, or for a heading without one the first page of an entry under it.
 * Null when neither it nor anything under it has a page.
 */
export function entryStartPage(node: DirectoryNode): number | null {
  if (node.pageNumber != null) return node.pageNumber;
  for (const child of node.children) {
    const page = entryStartPage(child);
    if (page != null) return page;
  }
  return null;
}

/**
 * The entry the page belongs to (`directoryEntryOfPage` in packages/shared, the rule the server also
 * uses for print items and search hits): the first section starting on the page, down through the
 * sections under it starting there too; else the section started last before the page.
 */
export function currentEntry(nodes: readonly DirectoryNode[], pageNumber: number): DirectoryNode | null {
  const points: Array<DirectoryPoint & { node: DirectoryNode }> = [];
  const visit = (list: readonly DirectoryNode[], parentId: number | null) => {
    for (const node of list) {
      points.push({ id: node.directoryId, parentId, page: node.pageNumber, node });
      visit(node.children, node.directoryId);
    }
  };
  visit(nodes, null);
  return directoryEntryOfPage(points, pageNumber)?.node ?? null;
}

/** The ids of the entries above the one with this id, outermost first (to expand them). */
export function ancestorIds(nodes: readonly DirectoryNode[], directoryId: number): number[] {
  const path: number[] = [];
  const visit = (list: readonly DirectoryNode[]): boolean => {
    for (const node of list) {
      if (node.directoryId === directoryId) return true;
      path.push(node.directoryId);
      if (visit(node.children)) return true;
      path.pop();
    }
    return false;
  };
  return visit(nodes) ? path : [];
}

/** A directory as the data of antd's Tree, keyed by directoryId. */
export function toTreeData(nodes: readonly DirectoryNode[]): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.directoryId,
    title: node.name,
    children: node.children.length ? toTreeData(node.children) : undefined,
  }));
}
