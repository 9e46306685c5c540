import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { DIALECTS } from '../../test/helpers.ts';
import { createHttpHarness, createOwnVolume, GOOD_PASSWORD, type HttpHarness } from '../../test/http.ts';
import { makeReader } from '../../test/factories.ts';

/**
 * Issue 13 item 8: a multipart body that ends early (no closing boundary, or an unterminated part)
 * is a client's fault: 400 with a clear message, never a 5xx, and nothing is stored.
 */
describe.each(DIALECTS)('truncated multipart bodies on %s', (dialect) => {
  let h: HttpHarness;
  let reader: string;
  let readerLogin = '';
  let staff: string;
  let volumeUrl: string;

  /** The bodies, given the file name each endpoint expects (a .zip for the zip uploads). */
  const BODIES: Array<[string, (name: string) => string]> = [
    ['a body without any part', () => 'x'],
    [
      'an unterminated part',
      (name) => `--zzz\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\nabc`,
    ],
    [
      'a part with image bytes and no closing boundary',
      (name) =>
        `--zzz\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n`,
    ],
  ];

  const send = (url: string, cookie: string, body: string) =>
    h.request({
      method: 'POST',
      url,
      cookie,
      headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
      payload: Buffer.from(body, 'latin1'),
    });

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ cookie: reader, loginName: readerLogin } = await makeReader(h, 'truncreader'));
    await h.context.services.auth.upsertAccount({
      loginName: 'truncimporter',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    staff = (await h.login('truncimporter', GOOD_PASSWORD)).cookie;
    const { volumeId } = await createOwnVolume(h, reader, {
      title: '殘卷',
      actualVolume: 1,
      author: '佚名',
      publishDynasty: '清',
      editionType: '抄本',
    });
    volumeUrl = `/api/own/volumes/${volumeId}`;
  });
  afterAll(async () => h.close());

  const counts = async () => {
    const db = h.context.database.db;
    const count = async (table: 'pages' | 'books' | 'volumes') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const { avatar_file } = await db
      .selectFrom('users')
      .select('avatar_file')
      .where('login_name', '=', readerLogin)
      .executeTakeFirstOrThrow();
    return {
      pages: await count('pages'),
      books: await count('books'),
      volumes: await count('volumes'),
      avatar_file,
    };
  };

  const endpoints = (): Array<[string, string, string]> => [
    ['/api/own/singles', reader, 'a.png'],
    ['/api/me/avatar', reader, 'a.png'],
    [`${volumeUrl}/images`, reader, 'a.png'],
    [`${volumeUrl}/zip`, reader, 'a.zip'],
    ['/api/admin/import', staff, 'a.zip'],
  ];

  it.each(BODIES)(
    '%s answers 400 «上传的数据不完整» on every upload endpoint and stores nothing',
    async (_, body) => {
      const before = await counts();
      for (const [url, cookie, name] of endpoints()) {
        const response = await send(url, cookie, body(name));
        expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
        expect(response.json(), url).toEqual({ code: 'UPLOAD_INCOMPLETE', message: MSG.uploadIncomplete });
      }
      expect(await counts()).toEqual(before);
    },
  );

  it('a multipart body with no boundary is a 4xx, never a 5xx', async () => {
    for (const [url, cookie, name] of endpoints()) {
      const response = await h.request({
        method: 'POST',
        url,
        cookie,
        headers: { 'content-type': 'multipart/form-data' },
        payload: Buffer.from(BODIES[1]![1](name)),
      });
      expect(response.statusCode, `${url}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(500);
    }
  });
});
