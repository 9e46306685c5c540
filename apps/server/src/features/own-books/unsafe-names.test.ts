import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createBook, pageImage } from '../../../test/catalog-factory.ts';
import {
  createHttpHarness,
  createOwnVolume,
  GOOD_PASSWORD,
  multipartFile,
  multipartFiles,
  postForm,
  type HttpHarness,
} from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeZip } from '../../../test/zip.ts';
import { makeReader } from '../../../test/factories.ts';

const RLO = '\u202e';
/** What the probes sent: markup, a right-to-left override, an isolate, a mark, controls, a zero-width space. */
const UNSAFE = [
  '<img src=x onerror=alert(1)>',
  `invoice${RLO}gpj.exe`,
  `書\u2067名`,
  `書\u200f名`,
  '書\u0000名',
  '書\u0007名',
  '書\u0085名',
  '書\u001b[31m名',
  '書\u200b名',
];

/**
 * Issue 13 item 13: login names and names of books, volumes, pages, directories and uploaded files
 * refuse markup, bidi overrides and control characters; the comment filter refuses unclosed tags.
 */
describe.each(DIALECTS)(
  'names and free text refuse markup, bidi overrides and control characters on %s',
  (dialect) => {
    let h: HttpHarness;
    let owner: string;
    let staff: string;
    const BOOK = {
      title: '安全書名',
      actualVolume: 1,
      author: '佚名',
      publishDynasty: '清',
      editionType: '抄本',
    };
    const send = (method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown, cookie = owner) =>
      h.request({ method, url, body, cookie });
    const message = async (response: Promise<{ statusCode: number; json: () => unknown }>) => {
      const r = await response;
      expect(r.statusCode).toBe(400);
      return (r.json() as { message: string }).message;
    };

    beforeAll(async () => {
      h = await createHttpHarness(dialect);
      owner = (await makeReader(h, 'namesowner')).cookie;
      await h.context.services.auth.upsertAccount({
        loginName: 'namesstaff',
        password: GOOD_PASSWORD,
        roles: ['reader', 'catalogAdmin'],
      });
      staff = (await h.login('namesstaff', GOOD_PASSWORD)).cookie;
    });
    afterAll(async () => h.close());

    it('registration refuses login names with markup, bidi overrides, controls, spaces or look-alike letters', async () => {
      const names = [
        '<b>x</b>',
        `ad${RLO}nim`,
        'ad\u0000min',
        'ad min',
        'аdmin' /* Cyrillic а */,
        'a\u200bdmin',
      ];
      for (const [i, loginName] of names.entries()) {
        const response = await h.register({ loginName, phone: `1340000137${i}` });
        expect(response.statusCode, JSON.stringify(loginName)).toBe(400);
        expect(response.json(), JSON.stringify(loginName)).toMatchObject({ message: MSG.loginNameInvalid });
      }
      expect((await h.register({ loginName: '', phone: '13400001379' })).json()).toMatchObject({
        message: MSG.loginNameRequired,
      });
      const accounts = await h.context.database.db.selectFrom('users').select('login_name').execute();
      expect(accounts.map((a) => a.login_name)).not.toContain('ad min');
      // Ordinary names still register: letters, digits, Han characters, _ . - @.
      expect((await h.register({ loginName: '張三_zhang.san-1@lib', phone: '13400001380' })).statusCode).toBe(
        200,
      );
    });

    it('own book titles and fields, volume names, page names and directory names refuse them', async () => {
      for (const bad of UNSAFE) {
        expect(await message(send('POST', '/api/own/books', { ...BOOK, title: bad })), bad).toBe(
          MSG.nameUnsafeChars,
        );
        expect(await message(send('POST', '/api/own/books', { ...BOOK, author: bad })), bad).toBe(
          MSG.nameUnsafeChars,
        );
      }
      // Existing messages are unchanged.
      expect(await message(send('POST', '/api/own/books', { ...BOOK, title: ' ' }))).toBe(
        MSG.ownTitleRequired,
      );
      const book = (await send('POST', '/api/own/books', BOOK)).json<{ catalogId: number }>();
      expect(
        await message(send('PUT', `/api/own/books/${book.catalogId}`, { ...BOOK, title: `家譜${RLO}` })),
      ).toBe(MSG.nameUnsafeChars);
      expect(
        (await h.request({ method: 'GET', url: `/api/own/books/${book.catalogId}`, cookie: owner })).json(),
      ).toMatchObject({
        title: '安全書名',
      });
      expect(
        await message(send('POST', `/api/own/books/${book.catalogId}/volumes`, { name: '卷<script' })),
      ).toBe(MSG.nameUnsafeChars);
      expect(
        await message(
          send('POST', `/api/own/books/${book.catalogId}/volumes`, {
            name: '卷一',
            introduction: `序${RLO}`,
          }),
        ),
      ).toBe(MSG.textUnsafeChars);
      // An introduction may have several lines.
      expect(
        (
          await send('POST', `/api/own/books/${book.catalogId}/volumes`, {
            name: '卷一',
            introduction: '第一行\n第二行',
          })
        ).statusCode,
      ).toBe(200);
      const [volume] = (
        await h.request({ method: 'GET', url: `/api/own/books/${book.catalogId}/volumes`, cookie: owner })
      ).json<Array<{ fascicleId: number }>>();
      const form = multipartFile(
        'file',
        'p.zip',
        makeZip({ '1.png': await pageImage(1) }),
        'application/zip',
      );
      await postForm(h, `/api/own/volumes/${volume!.fascicleId}/zip`, owner, form);
      const [page] = (
        await h.request({ method: 'GET', url: `/api/own/volumes/${volume!.fascicleId}/pages`, cookie: owner })
      ).json<Array<{ imageId: number }>>();
      for (const bad of UNSAFE)
        expect(await message(send('PUT', `/api/own/pages/${page!.imageId}`, { imageName: bad })), bad).toBe(
          MSG.nameUnsafeChars,
        );
      expect(
        await message(
          send('PUT', `/api/own/volumes/${volume!.fascicleId}/directory`, {
            entries: [{ name: `第一${RLO}章`, imageId: page!.imageId, children: [] }],
          }),
        ),
      ).toBe(MSG.nameUnsafeChars);
    });

    it('uploaded file names (zip entries, page images, single images) refuse them, naming the file readably', async () => {
      const { volumeId } = await createOwnVolume(h, owner, BOOK);
      const post = (url: string, form: { payload: Buffer; contentType: string }) =>
        postForm(h, url, owner, form);
      const png = await pageImage(1);

      const zip = makeZip({ [`scan${RLO}gnp.png`]: png });
      const zipRefusal = await message(
        post(`/api/own/volumes/${volumeId}/zip`, multipartFile('file', 'p.zip', zip, 'application/zip')),
      );
      expect(zipRefusal).toBe(`${MSG.fileNameUnsafe}：scanU+202Egnp.png`);
      expect(
        await message(
          post(
            `/api/own/volumes/${volumeId}/zip`,
            multipartFile('file', 'p.zip', makeZip({ '<b>1.png': png }), 'application/zip'),
          ),
        ),
      ).toBe(`${MSG.fileNameUnsafe}：<b>1.png`);
      expect(
        await message(
          post(`/api/own/volumes/${volumeId}/images`, multipartFiles('file', [['a\u0007.png', png]])),
        ),
      ).toBe(`${MSG.fileNameUnsafe}：aU+0007.png`);
      expect(await message(post('/api/own/singles', multipartFiles('file', [[`碑${RLO}.png`, png]])))).toBe(
        `${MSG.fileNameUnsafe}：碑U+202E.png`,
      );
      const pages = await h.request({
        method: 'GET',
        url: `/api/own/volumes/${volumeId}/pages`,
        cookie: owner,
      });
      expect(pages.json()).toEqual([]);
      expect((await h.request({ method: 'GET', url: '/api/own/singles', cookie: owner })).json()).toEqual([]);
    });

    it('catalogue staff fields refuse them too', async () => {
      const { bookId } = await createBook(h.context, { volumes: [1] });
      expect(await message(send('PATCH', `/api/books/${bookId}`, { title: `書${RLO}名` }, staff))).toBe(
        MSG.nameUnsafeChars,
      );
      expect(await message(send('PATCH', `/api/books/${bookId}`, { author: '<i>某</i>' }, staff))).toBe(
        MSG.nameUnsafeChars,
      );
      expect(await message(send('POST', '/api/admin/books', { title: '書\u0000名' }, staff))).toBe(
        MSG.nameUnsafeChars,
      );
    });

    it('comments and notes refuse tags, closed or not, and bidi overrides; keep line breaks and a bare <', async () => {
      const { bookId } = await createBook(h.context, { volumes: [1], isOpen: true });
      const url = `/api/books/${bookId}/comments`;
      for (const text of [
        '<script>alert(1)</script>',
        '<b',
        '好<script',
        '<img src=x onerror=alert(1)',
        '</b',
        '< b>',
        '<!--',
      ])
        expect(await message(send('POST', url, { text })), text).toBe(MSG.noHtml);
      for (const text of [`好${RLO}評`, '好\u0000評', '好\u2066評'])
        expect(await message(send('POST', url, { text })), JSON.stringify(text)).toBe(MSG.textUnsafeChars);
      expect((await send('POST', url, { text: '1 < 2 的版本更早\n第二行' })).statusCode).toBe(200);
      const list = (await h.request({ method: 'GET', url })).json<{ records: Array<{ text: string }> }>();
      expect(list.records.map((r) => r.text)).toEqual(['1 < 2 的版本更早\n第二行']);
    });
  },
);
