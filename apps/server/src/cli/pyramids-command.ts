import type { Config } from '../config.ts';
import { createContext } from '../context.ts';
import { storedFileSource } from '../iiif/image.service.ts';
import { isCurrentPyramid } from '../iiif/pyramid.ts';

/** Pages read from the database at a time. */
const BATCH = 500;

/**
 * `npm run cli -- pyramids [--all]`: queues the pyramid job again for every page whose pyramid is of an
 * older kind (iiif/pyramid.ts `isCurrentPyramid`: libvips' own levels, no exact edge tiles, no restart
 * segments), or for every page with `--all`. The running site's jobs or a `worker` make them; each rebuilt
 * pyramid gets a new key, and the old file is removed a minute after the page points at the new one.
 */
export async function pyramidsCommand(args: string[], config: Config): Promise<number> {
  const unknown = args.filter((arg) => arg !== '--all');
  if (unknown.length) {
    console.error(`未知选项：${unknown.join(' ')}（用法：pyramids [--all]）`);
    return 2;
  }
  const all = args.includes('--all');
  const context = await createContext(config);
  try {
    let checked = 0;
    let queued = 0;
    for (let after = 0; ;) {
      const pages = await context.repos.catalog.pagesWithPyramids(after, BATCH);
      if (pages.length === 0) break;
      for (const page of pages) {
        checked++;
        if (!all && (await isCurrentPyramid(storedFileSource(context.storage, page.pyramidKey)))) continue;
        await context.queue.enqueue(
          'images.pyramid',
          { pageId: page.id },
          { dedupeKey: `pyramid:${page.id}`, tx: context.database.db },
        );
        queued++;
      }
      after = pages.at(-1)!.id;
    }
    console.log(`检查了 ${checked} 页的图像金字塔，${queued} 页排入重新生成（由运行中的网站或 worker 执行）`);
    return 0;
  } finally {
    await context.close();
  }
}
