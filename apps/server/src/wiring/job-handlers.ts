import path from 'node:path';
import type { AppContext } from '../context.ts';
import { makePyramid } from '../iiif/pyramid.ts';
import { parseImageRequest } from '../iiif/image-request.ts';
import { THUMBNAIL_REQUEST } from '../iiif/addresses.ts';
import { withLocalFile } from '../storage/storage.ts';
import { removeStaleTempDirs, withTempDir } from '../storage/temp.ts';
import { removeOrphanMasters } from '../features/import/orphan-masters.ts';
import type { JobDataMap } from '../jobs/registry.ts';
import type { JobHandlers } from '../jobs/worker.ts';
import type { OcrEngine } from '../ocr/engine.ts';

/** How long a pyramid a rebuild replaced is kept before it is removed. */
export const PYRAMID_RETIRE_DELAY_MS = 60_000;

/** The handler of every job in the registry. Handlers are idempotent: a rerun does no harm. */
export function createJobHandlers(context: AppContext): JobHandlers<JobDataMap> {
  // One OCR engine per worker, loaded with the first OCR job (DESIGN.md §5).
  let engine: Promise<OcrEngine> | undefined;
  return {
    'maintenance.purge': async (_data, job) => {
      const now = context.clock.now().toISOString();
      await context.repos.sessions.purgeExpired(now);
      await job.progress(50, 'sessions');
      await context.repos.captchas.purgeExpired(now);
      // Login failure counts older than a day, unless a lock still runs.
      const dayAgo = new Date(Date.parse(now) - 86_400_000).toISOString();
      await context.repos.users.purgeLoginFailures(dayAgo, now);
      await context.repos.rateLimits.purgeExpired(Date.parse(now));
      await context.repos.uploadSlots.purgeExpired(Date.parse(now));
      // Upload folders a crash or a killed process left behind (a live upload is minutes old).
      const removed = await removeStaleTempDirs(context.config.dataDir, Date.parse(dayAgo));
      // Masters of an import whose process died before its rows were committed.
      const orphans = await removeOrphanMasters(context.storage, context.repos.catalog, Date.parse(dayAgo));
      return { purgedBefore: now, tempDirsRemoved: removed, orphanMasterFoldersRemoved: orphans };
    },
    'images.pyramid': async ({ pageId }, job) => {
      const page = await context.repos.catalog.findPage(pageId);
      if (!page) return { skipped: 'page deleted' };
      // A rebuilt pyramid gets a key of its own: every process keeps a pyramid's structure by key, and
      // ETags are made from it, so nothing can mix the old file's structure with the new one's bytes or
      // answer 304 for the old image. The old file goes a little later (images.retire), once no reader
      // can still be on its way to it (public pages are kept 5 s per process).
      const previous = page.pyramid_key;
      const key = previous
        ? `pyramids/${page.book_id}/${page.id}.${context.clock.now().getTime().toString(36)}.tif`
        : `pyramids/${page.book_id}/${page.id}.tif`;
      await job.progress(10, '生成金字塔图像');
      const { storage, config } = context;
      // Made in DATA_DIR/tmp, then stored whole (renamed into place on local disk, uploaded to an object
      // store): readers never see half a pyramid, and a worker killed while tiling leaves only its temporary
      // folder, which the daily purge removes.
      await withLocalFile(storage, config.dataDir, page.master_key, (master) =>
        withTempDir(config.dataDir, async (dir) => {
          const file = path.join(dir, 'pyramid.tif');
          await makePyramid(master, file);
          await storage.putFile(key, file);
        }),
      );
      await context.repos.catalog.setPyramid(page.id, key, 'ready');
      await context.iiifImages.invalidate(page.id);
      if (previous && previous !== key)
        await context.queue.enqueue(
          'images.retire',
          { key: previous },
          {
            runAt: new Date(context.clock.now().getTime() + PYRAMID_RETIRE_DELAY_MS).toISOString(),
            // After the page points at the new file: a crash between the two only leaves the old file.
            tx: context.database.db,
          },
        );
      // The thumbnail lists and the reader's strip ask for first: make it now, from the new pyramid.
      await job.progress(80, '生成缩略图');
      await context.iiifImages.render({ ...page, pyramid_key: key }, parseImageRequest(...THUMBNAIL_REQUEST));
      return { pyramid: key };
    },
    'images.retire': async ({ key }) => {
      if (await context.repos.catalog.pyramidInUse(key)) return { kept: key };
      await context.storage.delete(key);
      context.iiifImages.forget(key);
      return { removed: key };
    },
    'ocr.page': async ({ pageId }, job) => {
      const page = await context.repos.catalog.findPage(pageId);
      if (!page) return { skipped: 'page deleted' };
      engine ??= context.createOcrEngine();
      const ocr = await engine;
      await job.progress(10, `识别文字（${ocr.description}）`);
      const { ocr: result, warnings } = await withLocalFile(
        context.storage,
        context.config.dataDir,
        page.master_key,
        (file) => ocr.recognize(file),
      );
      await job.progress(90, '保存识别结果');
      const characters = result.ocr_res.content.reduce((n, l) => n + l.words.length, 0);
      // The engine's warnings go with the result: into the job's summary and the saved version.
      const summary = (version: number) => ({ version, characters, engine: ocr.name, warnings });
      // The version and the job's completion commit together: a rerun never saves a second version.
      const saved = await context.services.ocr.saveVersion(
        pageId,
        result,
        `ocr:${ocr.name}`,
        null,
        (tx, version) => job.completeIn(tx, summary(version)),
        warnings,
      );
      return summary(saved.version);
    },
  };
}
