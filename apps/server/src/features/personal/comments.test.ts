import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { personalClient, personalData, type TestBook } from './personal-test-kit.ts';
import { makeReader } from '../../../test/factories.ts';

describe.each(DIALECTS)('comments over HTTP (%s)', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let bob: string;
  let open: TestBook;
  const as = (cookie: string) => personalClient(h, cookie);

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ alice, bob, open } = await personalData(h));
  });
  afterAll(async () => h.close());

  it('comments: limits and messages, newest first with nickname, delete own only, staff hide', async () => {
    const a = as(alice);
    const url = `/api/books/${open.bookId}/comments`;
    expect((await a.post(url, { text: '   ' })).json()).toMatchObject({ message: MSG.commentEmpty });
    expect((await a.post(url, { text: '好'.repeat(501) })).json()).toMatchObject({
      message: MSG.commentTooLong,
    });
    expect((await a.post(url, { text: '好'.repeat(500) })).statusCode).toBe(200);
    expect((await a.post(url, { text: '<script>alert(1)</script>' })).json()).toMatchObject({
      message: MSG.noHtml,
    });
    expect((await a.post(url, { text: '1 < 2 的版本更早' })).statusCode).toBe(200);
    expect((await as(bob).post(url, { text: '此本字跡清晰' })).statusCode).toBe(200);
    expect((await h.request({ method: 'POST', url, body: { text: '匿名' } })).statusCode).toBe(401);

    const visitorView = (await h.request({ method: 'GET', url })).json<{
      total: number;
      records: Array<{ id: number; text: string; nickName: string; mine: boolean }>;
    }>();
    expect(visitorView.total).toBe(3);
    expect(visitorView.records[0]).toMatchObject({ text: '此本字跡清晰', nickName: 'bobby', mine: false });
    const bobsId = visitorView.records[0]!.id;
    const mine = (await a.get('/api/me/comments')).json<{ total: number; records: Array<{ id: number }> }>();
    expect(mine.total).toBe(2);
    expect((await a.del(`/api/me/comments/${bobsId}`)).statusCode).toBe(404);
    expect((await a.del(`/api/me/comments/${mine.records[0]!.id}`)).statusCode).toBe(200);

    // Hiding needs the catalogue permission; a hidden comment leaves the public list.
    expect((await a.put(`/api/admin/comments/${bobsId}/hidden`, { hidden: true })).statusCode).toBe(403);
    await h.context.services.auth.upsertAccount({
      loginName: 'editor',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    const editor = (await h.login('editor', GOOD_PASSWORD)).cookie;
    expect((await as(editor).put(`/api/admin/comments/${bobsId}/hidden`, { hidden: true })).statusCode).toBe(
      200,
    );
    expect((await h.request({ method: 'GET', url })).json<{ total: number }>().total).toBe(1);
    expect(
      (await as(bob).get('/api/me/comments')).json<{ records: Array<{ hidden: boolean }> }>().records[0]!
        .hidden,
    ).toBe(true);
  });
  it('a reader posting comments in a burst is stopped after the limit with 429; others are not', async () => {
    // Issue 30 item 11: 60 public comments in a few seconds by one reader.
    const burst = as((await makeReader(h, 'burstreader')).cookie);
    const url = `/api/books/${open.bookId}/comments`;
    const limit = h.context.config.writeRateLimitPerMinute;
    const answers = [];
    for (let i = 0; i < limit + 5; i++) answers.push(await burst.post(url, { text: `第${i}條` }));
    expect(answers.slice(0, limit).every((r) => r.statusCode === 200)).toBe(true);
    const refused = answers.slice(limit);
    expect(refused.map((r) => r.statusCode)).toEqual(refused.map(() => 429));
    expect(refused[0]!.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: '请求过于频繁，请稍后再试' });
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    const listed = (await h.request({ method: 'GET', url: `${url}?pageNum=1` })).json<{ total: number }>();
    expect(listed.total).toBeGreaterThanOrEqual(limit);
    // Another reader still posts.
    expect((await as(bob).post(url, { text: '另一位讀者' })).statusCode).toBe(200);
  });
});
