import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { MSG } from '@guji/shared';
import { buildApp } from '../../app.ts';
import { createContext, type AppContext } from '../../context.ts';
import { pageImage } from '../../../test/catalog-factory.ts';
import { createHttpHarness, GOOD_PASSWORD, multipartFile, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { UPLOAD_LEASE_MS, UPLOADS_PER_USER, UploadGate } from './upload-gate.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The per-user upload quota (DESIGN.md §8) held in the database (issue 17): two web processes on one
 * database give a user two uploads at once, not two each; a slot left by a crashed process frees itself.
 */
describe.each(DIALECTS)('uploads in progress, shared by every process (%s)', (dialect) => {
  let h: HttpHarness;
  let other: AppContext;
  let second: FastifyInstance;

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    // A second process: its own connection to the same database, its own app.
    other = await createContext(h.context.config, { clock: h.clock });
    second = await buildApp(other, { logger: false });
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
    await other.close();
    await h.close();
  });

  async function user(loginName: string, phone: string): Promise<{ cookie: string; id: number }> {
    await h.register({ loginName, phone });
    const { cookie } = await h.login(loginName, GOOD_PASSWORD);
    const row = await h.context.database.db
      .selectFrom('users')
      .select('id')
      .where('login_name', '=', loginName)
      .executeTakeFirstOrThrow();
    return { cookie, id: row.id };
  }

  const single = async (n: number) => multipartFile('file', `${n}.png`, await pageImage(n), 'image/png');
  const upload = async (app: FastifyInstance, cookie: string, n: number) => {
    const form = await single(n);
    return app.inject({
      method: 'POST',
      url: '/api/own/singles',
      headers: { cookie, 'content-type': form.contentType },
      payload: form.payload,
    });
  };
  /** An upload whose body arrives in two parts: in progress until `finish` is called. */
  const slowUpload = async (app: FastifyInstance, cookie: string, n: number) => {
    const form = await single(n);
    const cut = form.payload.length - 200;
    const body = new PassThrough();
    body.write(form.payload.subarray(0, cut));
    const response = app.inject({
      method: 'POST',
      url: '/api/own/singles',
      headers: { cookie, 'content-type': form.contentType },
      payload: body,
    });
    return { response, finish: () => body.end(form.payload.subarray(cut)) };
  };

  it(`gives a user ${UPLOADS_PER_USER} uploads at once across both processes; one more gets 429 from either`, async () => {
    const owner = await user('gateowner', '13400001371');
    const stranger = await user('gatestranger', '13400001372');
    // The first single image makes the user's 单张图像 book; then the uploads below only add pages to it.
    expect((await upload(h.app, owner.cookie, 9)).statusCode).toBe(200);
    const held = [];
    for (let i = 0; i < UPLOADS_PER_USER; i++) held.push(await slowUpload(h.app, owner.cookie, i + 1));
    // The second process sees the first one's uploads.
    while ((await other.services.uploads.inProgress(owner.id)) < UPLOADS_PER_USER) await sleep(5);

    const refused = await upload(second, owner.cookie, 5);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: MSG.uploadBusy });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await upload(h.app, owner.cookie, 6)).statusCode).toBe(429);
    // Another user is not held up.
    expect((await upload(second, stranger.cookie, 7)).statusCode).toBe(200);

    for (const slow of held) slow.finish();
    for (const slow of held) expect((await slow.response).statusCode).toBe(200);
    expect(await other.services.uploads.inProgress(owner.id)).toBe(0);
    expect((await upload(second, owner.cookie, 8)).statusCode).toBe(200);
  });

  it('frees a slot on release, once, and after a failed upload', async () => {
    const gate = h.context.services.uploads;
    const userId = 9_100;
    const releaseOne = await gate.enter(userId);
    const releaseTwo = await other.services.uploads.enter(userId);
    await expect(gate.enter(userId)).rejects.toMatchObject({ status: 429, message: MSG.uploadBusy });
    await releaseOne();
    await releaseOne(); // releasing twice frees one slot only
    expect(await gate.inProgress(userId)).toBe(1);
    await expect(gate.run(userId, () => Promise.reject(new Error('broken upload')))).rejects.toThrow(
      'broken upload',
    );
    expect(await gate.inProgress(userId)).toBe(1);
    await releaseTwo();
    expect(await gate.inProgress(userId)).toBe(0);
  });

  it('frees the slots of a process that died mid-upload when their lease ends', async () => {
    const userId = 9_200;
    const slots = h.context.repos.uploadSlots;
    const now = h.clock.now().getTime();
    // A process took both slots, then was killed: nothing renews or releases them.
    for (let slot = 0; slot < UPLOADS_PER_USER; slot++)
      expect(await slots.claim(userId, slot, `dead-${slot}`, now, now + UPLOAD_LEASE_MS)).toBe(true);
    await expect(other.services.uploads.enter(userId)).rejects.toMatchObject({ status: 429 });
    h.clock.advance(UPLOAD_LEASE_MS / 1000);
    expect(await other.services.uploads.inProgress(userId)).toBe(0);
    const release = await other.services.uploads.enter(userId);
    expect(await h.context.services.uploads.inProgress(userId)).toBe(1);
    // The dead holder can no longer give back or renew a slot that is now someone else's.
    await slots.release(userId, 0, 'dead-0');
    expect(await slots.renew(userId, 0, 'dead-0', now + 10 * UPLOAD_LEASE_MS)).toBe(false);
    expect(await h.context.services.uploads.inProgress(userId)).toBe(1);
    await release();
    await slots.purgeExpired(h.clock.now().getTime());
    expect(await h.context.services.uploads.inProgress(userId)).toBe(0);
  });

  it('keeps the slot of a long upload by renewing its lease', async () => {
    const userId = 9_300;
    const gate = new UploadGate(h.context.repos.uploadSlots, h.clock, { leaseMs: 60_000, renewEveryMs: 10 });
    const release = await gate.enter(userId);
    const lapses = h.clock.now().getTime() + 60_000;
    h.clock.advance(45);
    // The next renewal (every 10 ms) carries the lease past its first end.
    await vi.waitFor(async () => expect(await h.context.repos.uploadSlots.held(userId, lapses + 1)).toBe(1));
    h.clock.advance(45);
    // 90 s after it began, past a lease of 60 s: still held.
    expect(await gate.inProgress(userId)).toBe(1);
    await release();
    expect(await gate.inProgress(userId)).toBe(0);
  });
});
