import type { FileStorage } from '../../storage/storage.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';

/** The folder of a master key: `masters/<source>-<stamp>` or `masters/own-<book>-<volume>-<stamp>`. */
const folderOf = (key: string) => key.split('/').slice(0, 2).join('/');

/**
 * Removes the master folders no page refers to that were written before `before` (ms since the epoch):
 * those of an import or upload whose process died (kill -9, a crash, a full disk) after storing its
 * masters and before committing its rows. A folder's age is the stamp its name ends with (base 36 ms,
 * IngestService); an import still running is younger than `before` (a day ago). Returns how many folders went.
 */
export async function removeOrphanMasters(
  storage: FileStorage,
  catalog: CatalogRepository,
  before: number,
): Promise<number> {
  const stored = new Set<string>();
  for await (const { key } of storage.list('masters/')) stored.add(folderOf(key));
  if (stored.size === 0) return 0;
  const used = new Set((await catalog.allMasterKeys()).map(folderOf));
  let removed = 0;
  for (const folder of stored) {
    const stamp = Number.parseInt(/-([0-9a-z]+)$/.exec(folder)?.[1] ?? '', 36);
    if (used.has(folder) || !Number.isFinite(stamp) || stamp >= before) continue;
    await storage.deletePrefix(`${folder}/`);
    removed++;
  }
  return removed;
}
