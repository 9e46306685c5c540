import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { makeBook, makeReader } from '../../../test/factories.ts';

/**
 * A call number or title typed (or shown by the interface) in either script finds the book recorded
 * in the other: the 简/繁 toggle converts the interface, never what a reader can search for.
 */
describe.each(DIALECTS)('call numbers and titles in either script (%s)', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
  });
  afterAll(() => h.close());

  it('finds a simplified call number by its traditional form and the other way round', async () => {
    const reader = await makeReader(h, 'variants');
    const simplified = await makeBook(h, {
      volumes: [1],
      callNumber: `VAR-经-${reader.loginName}`,
      title: '论语注疏',
    });
    const traditional = await makeBook(h, {
      volumes: [1],
      callNumber: `VAR-經-${reader.loginName}X`,
      title: '孟子章句',
    });
    const lookup = async (callNumber: string) =>
      (
        await h.request({
          method: 'GET',
          url: `/api/reservations/lookup?callNumber=${encodeURIComponent(callNumber)}`,
          cookie: reader.cookie,
        })
      )
        .json<Array<{ catalogId: number }>>()
        .map((m) => m.catalogId);
    expect(await lookup('VAR-經')).toEqual(expect.arrayContaining([simplified.bookId, traditional.bookId]));
    expect(await lookup('VAR-经')).toEqual(expect.arrayContaining([simplified.bookId, traditional.bookId]));

    // Applying with the call number and title as the traditional interface shows them.
    const applied = await h.request({
      method: 'POST',
      url: '/api/reservations',
      cookie: reader.cookie,
      body: {
        callNumber: `VAR-經-${reader.loginName}`,
        title: '論語注疏',
        applyDays: 'ANB0402',
        detailReason: '校勘',
      },
    });
    expect(applied.statusCode).toBe(200);
    expect(applied.json<{ reservation: { catalogId: number } }>().reservation.catalogId).toBe(
      simplified.bookId,
    );
  });

  it('finds a title by either script in the catalogue search', async () => {
    const book = await makeBook(h, { volumes: [1], title: '诗经集传' });
    for (const title of ['詩經集傳', '诗经集传']) {
      const found = (
        await h.request({ method: 'GET', url: `/api/books?title=${encodeURIComponent(title)}&pageSize=50` })
      ).json<{ records: Array<{ catalogId: number }> }>().records;
      expect(
        found.map((b) => b.catalogId),
        title,
      ).toContain(book.bookId);
    }
  });
});
