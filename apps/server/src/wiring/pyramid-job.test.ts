import fs from 'node:fs';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBook } from '../../test/catalog-factory.ts';
import { DIALECTS, testConfig } from '../../test/helpers.ts';
import { runCli } from '../cli/cli.ts';
import { createContext, type AppContext } from '../context.ts';
import { storedFileSource } from '../iiif/image.service.ts';
import { isCurrentPyramid } from '../iiif/pyramid.ts';
import { parseImageRequest } from '../iiif/image-request.ts';
import { createJobHandlers, PYRAMID_RETIRE_DELAY_MS } from './job-handlers.ts';

describe.each(DIALECTS)('page pyramids made again (%s)', (dialect) => {
  let context: AppContext;
  let config: Awaited<ReturnType<typeof testConfig>>['config'];
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ config, cleanup } = await testConfig(dialect));
    context = await createContext(config);
  });
  afterAll(async () => {
    await context.close();
    await cleanup();
  });

  const jobsNamed = async (name: string) =>
    (await context.repos.jobs.page({ offset: 0, limit: 100 })).rows.filter((job) => job.name === name);
  const isCurrent = (key: string) => isCurrentPyramid(storedFileSource(context.storage, key));
  const runJobs = async () => {
    const worker = context.createWorker(pino({ level: 'silent' }));
    while (await worker.runOnce());
  };

  it('`pyramids` queues only pages whose pyramid is of an older kind; the rebuild gets a key of its own and the old file goes later', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const book = await createBook(context, { title: '舊金字塔', volumes: [2], pageSize: [1100, 700] });
    const [older, current] = await Promise.all(book.pageIds.map((id) => context.repos.catalog.findPage(id)));
    expect(await isCurrent(current!.pyramid_key!)).toBe(true);
    // The first page's pyramid made as before: libvips' own levels, no edge tiles, no restart segments.
    const olderFile = context.storage.localPath(older!.pyramid_key!)!;
    const libvips = await sharp(context.storage.localPath(older!.master_key))
      .tiff({ tile: true, pyramid: true, compression: 'jpeg', quality: 85, tileWidth: 512, tileHeight: 512 })
      .toBuffer();
    fs.writeFileSync(olderFile, libvips);
    context.iiifImages.forget(older!.pyramid_key!);
    expect(await isCurrent(older!.pyramid_key!)).toBe(false);
    const tile = () =>
      context.iiifImages.render(older!, parseImageRequest('100,100,300,200', '300,', '0', 'default.jpg'));
    const before = await tile();

    expect(await runCli(['pyramids'], config)).toBe(0);
    const queued = (await jobsNamed('images.pyramid')).filter((job) => job.status === 'queued');
    expect(queued.map((job) => JSON.parse(job.data) as unknown)).toEqual([{ pageId: older!.id }]);
    await runJobs();

    const rebuilt = (await context.repos.catalog.findPage(older!.id))!;
    expect(rebuilt.pyramid_key).toMatch(
      new RegExp(`^pyramids/${book.bookId}/${older!.id}\\.[0-9a-z]+\\.tif$`),
    );
    expect(await isCurrent(rebuilt.pyramid_key!)).toBe(true);
    // A new key: a new ETag, so no client keeps the old image by revalidating.
    const after = await context.iiifImages.render(
      rebuilt,
      parseImageRequest('100,100,300,200', '300,', '0', 'default.jpg'),
    );
    expect(after.etag).not.toBe(before.etag);
    // The old file stays a minute (another process may still be on its way to it), then goes.
    expect(fs.existsSync(olderFile)).toBe(true);
    const retire = (await jobsNamed('images.retire')).find((job) => job.status === 'queued')!;
    expect(JSON.parse(retire.data)).toEqual({ key: older!.pyramid_key });
    expect(Date.parse(retire.run_at) - Date.parse(retire.created_at)).toBe(PYRAMID_RETIRE_DELAY_MS);
    const handlers = createJobHandlers(context);
    const job = { id: 0, progress: () => Promise.resolve() };
    await handlers['images.retire']({ key: older!.pyramid_key! }, job as never);
    expect(fs.existsSync(olderFile)).toBe(false);
    // A pyramid a page still uses is never removed.
    expect(await handlers['images.retire']({ key: current!.pyramid_key! }, job as never)).toEqual({
      kept: current!.pyramid_key,
    });
    expect(fs.existsSync(context.storage.localPath(current!.pyramid_key!)!)).toBe(true);

    // Nothing older is left: `pyramids` queues nothing; `--all` queues every page.
    expect(await runCli(['pyramids'], config)).toBe(0);
    expect((await jobsNamed('images.pyramid')).filter((j) => j.status === 'queued')).toHaveLength(0);
    expect(await runCli(['pyramids', '--all'], config)).toBe(0);
    expect(
      (await jobsNamed('images.pyramid')).filter((j) => j.status === 'queued').length,
    ).toBeGreaterThanOrEqual(2);
    await runJobs();
  });

  it('`pyramids` refuses an option it does not know', async () => {
    const errors: unknown[] = [];
    vi.spyOn(console, 'error').mockImplementation((message: unknown) => errors.push(message));
    expect(await runCli(['pyramids', '--everything'], config)).toBe(2);
    expect(String(errors[0])).toContain('未知选项');
  });
});
