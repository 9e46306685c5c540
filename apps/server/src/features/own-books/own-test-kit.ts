import { GOOD_PASSWORD, multipartFile, type HttpHarness } from '../../../test/http.ts';

/** A book with every field spec §5 requires. */
export const BOOK = {
  title: '自藏家譜',
  actualVolume: 1,
  author: '佚名',
  publishDynasty: '清',
  editionType: '抄本',
};

/** Calls as one signed-in user (`cookie`), with a zip upload as multipart field `file`. */
export const ownClient = (h: HttpHarness, cookie: string) => ({
  get: (url: string) => h.request({ method: 'GET', url, cookie }),
  del: (url: string) => h.request({ method: 'DELETE', url, cookie }),
  post: (url: string, body: unknown = {}) => h.request({ method: 'POST', url, body, cookie }),
  put: (url: string, body: unknown) => h.request({ method: 'PUT', url, body, cookie }),
  upload: (url: string, name: string, data: Buffer) => {
    const form = multipartFile('file', name, data, 'application/zip');
    return h.request({
      method: 'POST',
      url,
      cookie,
      headers: { 'content-type': form.contentType },
      payload: form.payload,
    });
  },
});

/** The own-book tests' users: two owners (alice, bob) and a reviewer, signed in (their cookies). */
export async function ownUsers(h: HttpHarness): Promise<{ alice: string; bob: string; reviewer: string }> {
  await h.register({ loginName: 'ownalice', phone: '13400000301' });
  await h.register({ loginName: 'ownbob', phone: '13400000302' });
  const alice = (await h.login('ownalice', GOOD_PASSWORD)).cookie;
  const bob = (await h.login('ownbob', GOOD_PASSWORD)).cookie;
  await h.context.services.auth.upsertAccount({
    loginName: 'ownchecker',
    password: GOOD_PASSWORD,
    roles: ['reader', 'reviewer'],
  });
  const reviewer = (await h.login('ownchecker', GOOD_PASSWORD)).cookie;
  return { alice, bob, reviewer };
}
