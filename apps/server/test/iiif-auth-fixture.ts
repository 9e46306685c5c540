import { createBook } from './catalog-factory.ts';
import { makeReader, type MadeUser } from './factories.ts';
import { createHttpHarness, type HttpHarness } from './http.ts';
import type { Dialect } from '../src/db/database.ts';

/** IIIF Authorization tests (issue 18): a configured viewer origin, a closed, a hidden and an open book. */
export const VIEWER = 'https://viewer.example.org';
export const OTHER = 'https://evil.example.net';

export interface IiifAuthFixture {
  h: HttpHarness;
  closed: Awaited<ReturnType<typeof createBook>>;
  hidden: Awaited<ReturnType<typeof createBook>>;
  open: Awaited<ReturnType<typeof createBook>>;
  /** May read the closed book (a privilege). */
  allowed: MadeUser & { id: number };
  /** May not read it. */
  denied: MadeUser & { id: number };
  get(url: string, headers?: Record<string, string>, cookie?: string): ReturnType<HttpHarness['request']>;
  /** An Auth 1.0 token (JSON form) for a signed-in user, or the error. */
  token(
    cookie: string,
    bookId: number,
  ): Promise<{ accessToken?: string; error?: string; description?: string }>;
}

export async function iiifAuthFixture(dialect: Dialect): Promise<IiifAuthFixture> {
  const h = await createHttpHarness(dialect, {
    IIIF_VIEWER_ORIGINS: `${VIEWER},http://127.0.0.1:3272`,
    READING_ROOM_CIDRS: '10.8.0.0/16',
    // Requests from 127.0.0.1 may say they came over HTTPS (X-Forwarded-Proto), as behind a proxy.
    TRUST_PROXY: '127.0.0.1',
  });
  const closed = await createBook(h.context, {
    title: '孟子',
    volumes: [2],
    isOpen: false,
    texts: [['孟子見梁惠王', '王曰叟不遠千里而來']],
  });
  const hidden = await createBook(h.context, {
    title: '秘本',
    volumes: [1],
    isVisible: false,
    isOpen: false,
  });
  const open = await createBook(h.context, { title: '論語', volumes: [1] });
  const withId = async (user: MadeUser) => ({
    ...user,
    id: (await h.context.repos.users.findByLoginName(user.loginName))!.id,
  });
  const allowed = await withId(await makeReader(h, 'iiifok'));
  const denied = await withId(await makeReader(h, 'iiifno'));
  // A privilege from the day before the test clock's now, for a year.
  const day = 86_400_000;
  const now = h.clock.now().getTime();
  await h.context.repos.catalog.grantPrivilege(
    allowed.id,
    closed.bookId,
    new Date(now - day).toISOString(),
    new Date(now + 365 * day).toISOString(),
  );
  const get: IiifAuthFixture['get'] = (url, headers = {}, cookie) =>
    h.request({ method: 'GET', url, remoteAddress: '203.0.113.9', headers, ...(cookie ? { cookie } : {}) });
  const token: IiifAuthFixture['token'] = async (cookie, bookId) =>
    (await get(`/iiif/auth/1/books/${bookId}/token`, {}, cookie)).json();
  return { h, closed, hidden, open, allowed, denied, get, token };
}
