/** One directory entry in reading order (pre-order), with its parent and the page it opens. */
export interface DirectoryPoint {
  id: number;
  parentId: number | null;
  /** The page (1-based in its volume) the entry opens; null for a heading without its own page. */
  page: number | null;
}

/**
 * The directory entry a page belongs to (the reader's current entry, the section named on a print
 * item and a search hit), from the entries in reading order:
 * - when entries start on the page, the page begins with the first of them, and with the first entry
 *   under it that starts there too, and so on down (卷一 › 学而 on the volume's first page; 关雎, not
 *   卷耳, on the first page of 诗经 where 关雎, 葛覃 and 卷耳 all start);
 * - otherwise the page continues the entry started last before it (the last in reading order among
 *   those starting on the nearest earlier page).
 * Null before the first entry's page, or without a directory.
 */
export function directoryEntryOfPage<T extends DirectoryPoint>(
  entries: readonly T[],
  page: number,
): T | null {
  const parents = new Map(entries.map((e) => [e.id, e.parentId]));
  const isUnder = (entry: T, ancestor: T) => {
    const seen = new Set<number>();
    for (let p = entry.parentId; p !== null && p !== undefined && !seen.has(p); p = parents.get(p) ?? null) {
      if (p === ancestor.id) return true;
      seen.add(p);
    }
    return false;
  };

  const startingHere = entries.filter((e) => e.page === page);
  if (startingHere.length > 0) {
    let current = startingHere[0]!;
    for (const next of startingHere.slice(1)) {
      if (!isUnder(next, current)) break;
      current = next;
    }
    return current;
  }
  let best: T | null = null;
  for (const entry of entries) {
    if (entry.page === null || entry.page > page) continue;
    if (!best || entry.page >= best.page!) best = entry;
  }
  return best;
}
