import { createBook } from '../../../test/catalog-factory.ts';
import { GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';

/** Outside the reading room (the test config's reading room is loopback). */
export const OUTSIDE = '203.0.113.9';

/** Calls as one signed-in user (`cookie`), from outside the reading room. */
export const personalClient = (h: HttpHarness, cookie: string) => ({
  get: (url: string) => h.request({ method: 'GET', url, cookie, remoteAddress: OUTSIDE }),
  del: (url: string) => h.request({ method: 'DELETE', url, cookie, remoteAddress: OUTSIDE }),
  post: (url: string, body: unknown = {}) =>
    h.request({ method: 'POST', url, body, cookie, remoteAddress: OUTSIDE }),
  put: (url: string, body: unknown = {}) =>
    h.request({ method: 'PUT', url, body, cookie, remoteAddress: OUTSIDE }),
  patch: (url: string, body: unknown) =>
    h.request({ method: 'PATCH', url, body, cookie, remoteAddress: OUTSIDE }),
});

export interface TestBook {
  bookId: number;
  pageIds: number[];
  volumeIds: number[];
}

/** What a personal-area suite works with: its users (signed in: their cookies) and its two books. */
export interface PersonalData {
  alice: string;
  bob: string;
  reviewer: string;
  /** An open book, call number T-001: one volume of two pages with recognised text. */
  open: TestBook;
  /** A restricted book (善本秘笈, call number T-900): one volume of two pages. */
  closed: TestBook;
}

/** Makes a suite's own data on its fresh database: two readers, a reviewer, an open and a closed book. */
export async function personalData(h: HttpHarness): Promise<PersonalData> {
  await h.register({ loginName: 'alice', phone: '13400000101' });
  await h.register({ loginName: 'bobby', phone: '13400000102' });
  const alice = (await h.login('alice', GOOD_PASSWORD)).cookie;
  const bob = (await h.login('bobby', GOOD_PASSWORD)).cookie;
  await h.context.services.auth.upsertAccount({
    loginName: 'checker',
    password: GOOD_PASSWORD,
    roles: ['reader', 'reviewer'],
  });
  const reviewer = (await h.login('checker', GOOD_PASSWORD)).cookie;
  const open = await createBook(h.context, {
    volumes: [2],
    texts: [['學而時習之', '不亦說乎']],
    callNumber: 'T-001',
  });
  const closed = await createBook(h.context, {
    volumes: [2],
    isOpen: false,
    callNumber: 'T-900',
    title: '善本秘笈',
  });
  return { alice, bob, reviewer, open, closed };
}
