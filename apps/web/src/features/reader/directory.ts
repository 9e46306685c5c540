import type { TreeDataNode } from 'antd';
import type { DirectoryNode } from '@guji/shared';

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
 * The entry whose page range holds `pageNumber`: an entry runs from its page to the page before the
 * next entry's. Among entries starting on the same page the last in reading order (the deepest) wins,
 * so a chapter beginning on its volume's first page is current rather than the volume heading.
 */
export function currentEntry(nodes: readonly DirectoryNode[], pageNumber: number): DirectoryNode | null {
  let best: DirectoryNode | null = null;
  for (const node of flattenDirectory(nodes)) {
    const start = node.pageNumber;
    if (start == null || start > pageNumber) continue;
    if (!best || start >= (best.pageNumber ?? 0)) best = node;
  }
  return best;
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
