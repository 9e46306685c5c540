import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createBook } from '../../../test/catalog-factory.ts';

const OUTSIDE = '203.0.113.9';
const READING_ROOM = '10.8.0.5';

describe.each(DIALECTS)('IIIF text annotations and Content Search 2.0 on %s', (dialect) => {
  let h: HttpHarness;
  let book: Awaited<ReturnType<typeof createBook>>;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, { READING_ROOM_CIDRS: '10.8.0.0/16' });
    book = await createBook(h.context, {
      title: '論語',
      volumes: [2],
      texts: [['子曰學而時習之不亦說乎有朋自遠方來', '有子曰其爲人也孝弟而好犯上者鮮矣']],
    });
  });
  afterAll(async () => h.close());

  const get = (url: string, remoteAddress = OUTSIDE) => h.request({ method: 'GET', url, remoteAddress });
  const volume = () => book.volumeIds[0]!;

  it('links the text as supplementing annotations per column (the search service only where it answers)', async () => {
    const manifest = (await get(`/iiif/presentation/volumes/${volume()}/manifest.json`)).json<{
      service?: Array<{ id: string; type: string }>;
      items: Array<{ id: string; annotations?: Array<{ id: string; type: string }> }>;
    }>();
    // Outside the reading room the search answers 403, so the manifest does not offer it (iiif-security.test.ts).
    expect(manifest.service).toBeUndefined();
    const ref = manifest.items[0]!.annotations![0]!;
    expect(ref).toEqual({
      id: `http://localhost:80/iiif/presentation/pages/${book.pageIds[0]}/text.json`,
      type: 'AnnotationPage',
    });

    const page = (await get(new URL(ref.id).pathname)).json<{
      type: string;
      items: Array<{ motivation: string; body: { value: string }; target: string }>;
    }>();
    expect(page.type).toBe('AnnotationPage');
    expect(page.items.map((a) => [a.motivation, a.body.value])).toEqual([
      ['supplementing', '子曰學而時習之不亦說'],
      ['supplementing', '乎有朋自遠方來'],
    ]);
    // The first column: 10 boxes of 20 px from y=20, x from 560 to 580 on a 600-pixel-wide page.
    expect(page.items[0]!.target).toBe(`${manifest.items[0]!.id}#xywh=560,20,20,245`);
  });

  it('answers a content search in the reading room with hits on canvases and their context', async () => {
    // Like in-book search: signed in, in the reading room (issue 13 item 11).
    await h.context.services.auth.upsertAccount({
      loginName: 'iiifreader',
      password: GOOD_PASSWORD,
      roles: ['reader'],
    });
    const cookie = (await h.login('iiifreader', GOOD_PASSWORD)).cookie;
    const response = await h.request({
      method: 'GET',
      url: `/iiif/search/volumes/${volume()}?q=${encodeURIComponent('学而')}&motivation=painting`,
      remoteAddress: READING_ROOM,
      cookie,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const body = response.json<{
      '@context': string[];
      type: string;
      ignored: string[];
      items: Array<{ motivation: string; body: { value: string }; target: string }>;
      annotations: Array<{ items: Array<{ target: { selector: Array<Record<string, string>> } }> }>;
    }>();
    expect(body['@context']).toEqual([
      'http://iiif.io/api/presentation/3/context.json',
      'http://iiif.io/api/search/2/context.json',
    ]);
    expect(body.type).toBe('AnnotationPage');
    expect(body.ignored).toEqual(['motivation']);
    expect(body.items).toHaveLength(1);
    expect(body.items[0]!.body.value).toBe('學而');
    expect(body.items[0]!.target).toMatch(new RegExp(`/canvas/${book.pageIds[0]}#xywh=560,70,20,45$`));
    expect(body.annotations[0]!.items[0]!.target.selector[0]).toEqual({
      type: 'TextQuoteSelector',
      prefix: '子曰',
      exact: '學而',
      suffix: '時習之不亦說乎有朋自',
    });
    // Outside the reading room the service refuses, as in-book search does.
    const outside = await get(`/iiif/search/volumes/${volume()}?q=${encodeURIComponent('学而')}`);
    expect(outside.statusCode).toBe(403);
    expect((await get(`/iiif/search/volumes/${volume()}`, READING_ROOM)).statusCode).toBe(400);
    // A visitor who is not signed in gets no snippet in the reading room either, even of an open book.
    const visitor = await get(`/iiif/search/volumes/${volume()}?q=${encodeURIComponent('子')}`, READING_ROOM);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ code: 'LOGIN_REQUIRED' });
    expect(visitor.headers['cache-control']).toBe('private, no-store');
  });
  it('answers Content Search 1.0 and its autocomplete with the same hits, under the same rules (issue 31 item 4)', async () => {
    await h.context.services.auth.upsertAccount({
      loginName: 'iiifreader1',
      password: GOOD_PASSWORD,
      roles: ['reader'],
    });
    const cookie = (await h.login('iiifreader1', GOOD_PASSWORD)).cookie;
    const ask = (url: string, remoteAddress = READING_ROOM) =>
      h.request({ method: 'GET', url, remoteAddress, cookie });
    const search = await ask(`/iiif/search/1/volumes/${volume()}?q=${encodeURIComponent('子曰')}`);
    expect(search.statusCode).toBe(200);
    const body = search.json<{
      '@context': string[];
      '@type': string;
      within: { total: number };
      resources: Array<{
        '@id': string;
        '@type': string;
        motivation: string;
        resource: { chars: string };
        on: string;
      }>;
      hits: Array<{ '@type': string; annotations: string[]; match: string; before: string; after: string }>;
    }>();
    expect(body['@context']).toEqual([
      'http://iiif.io/api/presentation/2/context.json',
      'http://iiif.io/api/search/1/context.json',
    ]);
    expect(body['@type']).toBe('sc:AnnotationList');
    // 子曰 on the first page, 有子曰 on the second: two hits, as Content Search 2.0 finds them.
    expect(body.within.total).toBe(2);
    expect(body.resources.map((r) => [r['@type'], r.motivation, r.resource.chars])).toEqual([
      ['oa:Annotation', 'sc:painting', '子曰'],
      ['oa:Annotation', 'sc:painting', '子曰'],
    ]);
    expect(body.resources[0]!.on).toMatch(new RegExp(`/canvas/${book.pageIds[0]}#xywh=\\d+,\\d+,\\d+,\\d+$`));
    expect(body.hits[1]).toMatchObject({
      '@type': 'search:Hit',
      annotations: [body.resources[1]!['@id']],
      match: '子曰',
      before: '有',
    });
    const two = (await ask(`/iiif/search/volumes/${volume()}?q=${encodeURIComponent('子曰')}`)).json<{
      items: unknown[];
    }>();
    expect(two.items).toHaveLength(body.resources.length);

    const complete = await ask(
      `/iiif/search/1/volumes/${volume()}/autocomplete?q=${encodeURIComponent('子')}`,
    );
    expect(complete.statusCode).toBe(200);
    const terms = complete.json<{
      '@type': string;
      terms: Array<{ match: string; url: string; count: number }>;
    }>();
    expect(terms['@type']).toBe('search:TermList');
    expect(terms.terms[0]).toEqual({
      match: '子曰',
      url: `http://localhost:80/iiif/search/1/volumes/${volume()}?q=${encodeURIComponent('子曰')}`,
      count: 2,
    });
    // The same rules: outside the reading room both refuse.
    expect(
      (await ask(`/iiif/search/1/volumes/${volume()}?q=${encodeURIComponent('子曰')}`, OUTSIDE)).statusCode,
    ).toBe(403);
    expect(
      (await ask(`/iiif/search/1/volumes/${volume()}/autocomplete?q=${encodeURIComponent('子')}`, OUTSIDE))
        .statusCode,
    ).toBe(403);
  });
});
