import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { contract, MSG } from '@guji/shared';
import { ApiError, call, hrefOf } from './client.ts';

const rename = contract({
  method: 'PATCH',
  path: '/api/books/:id/notes/:noteId',
  summary: 'test',
  tags: ['test'],
  query: z.object({ pageNum: z.coerce.number() }),
  body: z.object({ text: z.string() }),
  response: z.object({ id: z.number(), text: z.string() }),
});

/** Answers every fetch with `answer`, recording what was asked. */
function serve(answer: unknown) {
  const seen: Array<{ url: string; init: RequestInit }> = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return Promise.resolve(Response.json(answer));
  });
  return seen;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('calling a route through its contract', () => {
  it('fills the path, writes the query, sends the body with the declared method', async () => {
    const seen = serve({ id: 3, text: '学而' });
    const note = await call(rename, {
      params: { id: 1, noteId: 3 },
      query: { pageNum: 2 },
      body: { text: '学而' },
    });
    expect(note).toEqual({ id: 3, text: '学而' });
    expect(seen[0]?.url).toBe('/api/books/1/notes/3?pageNum=2');
    expect(seen[0]?.init.method).toBe('PATCH');
    expect(seen[0]?.init.body).toBe(JSON.stringify({ text: '学而' }));
  });

  it('refuses, in development, an answer whose shape drifted from the contract', async () => {
    serve({ id: '3', text: '学而' });
    const failure = call(rename, { params: { id: 1, noteId: 3 }, body: { text: 'x' } }, { quiet: true });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 'CONTRACT' });
  });

  it('says a request that got no answer, or only an error page of a proxy, may be repeated', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const lost = call(rename, { params: { id: 1, noteId: 3 }, body: { text: 'x' } }, { quiet: true });
    await expect(lost).rejects.toMatchObject({ status: 0, code: 'NETWORK', message: MSG.networkFailed });
    vi.stubGlobal('fetch', () =>
      Promise.resolve(new Response('<html>502 Bad Gateway</html>', { status: 502 })),
    );
    const proxied = call(rename, { params: { id: 1, noteId: 3 }, body: { text: 'x' } }, { quiet: true });
    await expect(proxied).rejects.toMatchObject({ status: 502, message: MSG.serverUnreachable });
  });

  it('links to a file route with its parameters filled in', () => {
    expect(hrefOf(rename, { id: 7, noteId: 8 }, { pageNum: 1 })).toBe('/api/books/7/notes/8?pageNum=1');
  });
});
