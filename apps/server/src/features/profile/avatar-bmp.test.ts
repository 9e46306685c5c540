import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { makeBmp } from '../../../test/bmp.ts';
import { createHttpHarness, multipartFile, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeReader } from '../../../test/factories.ts';

const SCRIPT = Buffer.from('<script>alert(1)</script>\n');

/** Issue 13 item 14: every avatar is re-encoded, BMP included; nothing appended to a file is served. */
describe.each(DIALECTS)('BMP avatars are re-encoded to PNG on %s', (dialect) => {
  let h: HttpHarness;
  let cookie: string;
  let cookieLogin = '';
  let userId: number;
  const upload = (name: string, data: Buffer) => {
    const { payload, contentType } = multipartFile('file', name, data, 'image/bmp');
    return h.request({
      method: 'POST',
      url: '/api/me/avatar',
      cookie,
      payload,
      headers: { 'content-type': contentType },
    });
  };

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ cookie: cookie, loginName: cookieLogin } = await makeReader(h, 'bmpavatar'));
    userId = (
      await h.context.database.db
        .selectFrom('users')
        .select('id')
        .where('login_name', '=', cookieLogin)
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => h.close());

  it('a 92-byte BMP with a trailing <script> is served as a 360 × 360 PNG without the trailing bytes', async () => {
    const bmp = makeBmp({ width: 3, height: 1, bpp: 24, pixel: () => 0xaa3311, trailing: SCRIPT });
    expect(bmp.length).toBe(92);
    const response = await upload('me.bmp', bmp);
    expect(response.statusCode, response.body).toBe(200);
    const url = response.json<{ avatarUrl: string }>().avatarUrl;
    expect(url).toMatch(/^\/api\/avatars\/\d+-[0-9a-f]{24}\.png$/);
    const image = await h.request({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(image.rawPayload.includes(Buffer.from('<script'))).toBe(false);
    const { data, info } = await sharp(image.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([360, 360]);
    expect([...data.subarray(0, 3)]).toEqual([0xaa, 0x33, 0x11]);
  });

  it('palette BMPs are re-encoded too; broken or unsupported BMPs are refused', async () => {
    const palette = makeBmp({
      width: 8,
      height: 8,
      bpp: 8,
      palette: [0x102030, 0xf0e0d0],
      pixel: (x) => x % 2,
    });
    expect((await upload('p.bmp', palette)).statusCode).toBe(200);
    const good = makeBmp({ width: 4, height: 4, bpp: 24, pixel: () => 0 });
    const rle = makeBmp({ width: 2, height: 2, bpp: 8, palette: [0], pixel: () => 0, compression: 1 });
    for (const data of [
      good.subarray(0, 60),
      rle,
      Buffer.concat([Buffer.from('BM'), SCRIPT, Buffer.alloc(60)]),
    ]) {
      const response = await upload('bad.bmp', data);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: MSG.avatarInvalid });
    }
  });

  it('a BMP stored as sent by an earlier version is served re-encoded, never as stored', async () => {
    const file = `${userId}-${'ab'.repeat(12)}.bmp`;
    const bmp = makeBmp({ width: 2, height: 2, bpp: 24, pixel: () => 0x00ff00, trailing: SCRIPT });
    await h.context.storage.put(`avatars/${file}`, bmp);
    const image = await h.request({ method: 'GET', url: `/api/avatars/${file}` });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.includes(Buffer.from('<script'))).toBe(false);
    expect((await sharp(image.rawPayload).metadata()).format).toBe('png');
  });
});
