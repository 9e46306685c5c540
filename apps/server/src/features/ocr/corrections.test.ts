import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CORRECTION_LIMITS,
  MSG,
  type OcrJson,
  type QueuedCorrection,
  type TextCorrection,
} from '@guji/shared';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeBook, makeReader, makeStaff, type MadeUser } from '../../../test/factories.ts';

const READING_ROOM = '10.9.0.5';

/**
 * Readers mend the text (issue 32 part 5): a reader proposes new characters for some of a column (or
 * flags them), catalogue staff accept or refuse; an accepted proposal is a new OCR version credited to
 * its author and search follows; nobody else sees a proposal; the hourly limit holds.
 */
describe.each(DIALECTS)('readers’ corrections of page text on %s', (dialect) => {
  let h: HttpHarness;
  let staff: MadeUser;
  beforeAll(async () => {
    // The per-minute write limit above the hourly one, so the test reaches the hourly one.
    h = await createHttpHarness(dialect, {
      READING_ROOM_CIDRS: '10.9.0.0/16',
      WRITE_RATE_LIMIT_PER_MINUTE: '100',
    });
    staff = await makeStaff(h, ['catalogAdmin'], 'fixer');
  });
  afterAll(async () => h.close());

  const propose = (cookie: string | undefined, pageId: number, body: Record<string, unknown>) =>
    h.request({ method: 'POST', url: `/api/pages/${pageId}/corrections`, cookie, body });
  const decide = (cookie: string, id: number, how: 'accept' | 'refuse', reason?: string) =>
    h.request({
      method: 'POST',
      url: `/api/admin/corrections/${id}/${how}`,
      cookie,
      ...(how === 'refuse' ? { body: { reason } } : {}),
    });
  const pageText = async (pageId: number) => {
    const { ocr } = (
      await h.request({ method: 'GET', url: `/api/pages/${pageId}/ocr`, cookie: staff.cookie })
    ).json<{
      ocr: OcrJson;
    }>();
    return ocr.ocr_res.content.map((line) => line.words.map((w) => w.word).join('')).join('|');
  };
  const search = async (text: string) =>
    (
      await h.request({
        method: 'GET',
        url: `/api/search/full-text?text=${encodeURIComponent(text)}`,
        remoteAddress: READING_ROOM,
        cookie: staff.cookie,
      })
    ).json<{ total: number }>().total;

  it('an accepted proposal becomes a new version credited to its author, and search follows', async () => {
    const book = await makeBook(h, { title: '孟子', volumes: [1], texts: [['孟子見梁惠王王曰叟']] });
    const pageId = book.pageIds[0]!;
    const reader = await makeReader(h, 'mender');
    const sent = await propose(reader.cookie, pageId, {
      line: 0,
      start: 6,
      original: '王曰',
      proposed: '王日',
      note: '据宋本',
    });
    expect(sent.statusCode).toBe(200);
    const proposal = sent.json<TextCorrection>();
    expect(proposal).toMatchObject({
      imageId: pageId,
      line: 0,
      start: 6,
      original: '王曰',
      proposed: '王日',
      note: '据宋本',
      status: 'pending',
      proposer: reader.loginName,
      version: null,
    });
    expect(proposal.box).not.toBeNull();
    // The text is unchanged until a reviewer accepts.
    expect(await pageText(pageId)).toBe('孟子見梁惠王王曰叟');

    const queue = await h.request({
      method: 'GET',
      url: `/api/admin/corrections?imageId=${pageId}`,
      cookie: staff.cookie,
    });
    expect(queue.statusCode).toBe(200);
    const queued = queue.json<{ records: QueuedCorrection[] }>().records;
    expect(queued.map((c) => c.id)).toEqual([proposal.id]);
    expect(queued[0]!.place).toMatchObject({ title: '孟子', pageNumber: 1 });

    const before = await search('王日叟');
    const accepted = await decide(staff.cookie, proposal.id, 'accept');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json<TextCorrection>()).toMatchObject({
      status: 'accepted',
      reviewer: staff.loginName,
      version: 2,
    });
    expect(await pageText(pageId)).toBe('孟子見梁惠王王日叟');
    expect(await search('王日叟')).toBe(before + 1);

    const versions = (
      await h.request({ method: 'GET', url: `/api/pages/${pageId}/ocr/versions`, cookie: staff.cookie })
    ).json<{ versions: Array<{ version: number; source: string; createdBy: string | null }> }>().versions;
    expect(versions[0]).toEqual(
      expect.objectContaining({
        version: 2,
        source: `correction:${proposal.id}`,
        createdBy: reader.loginName,
      }),
    );
    // The decision is in the audit log; deciding again is refused.
    const audit = await h.context.repos.audit.page({ action: 'correction.accept', offset: 0, limit: 50 });
    expect(audit.rows.map((r) => r.target)).toContain(`correction:${proposal.id}`);
    const again = await decide(staff.cookie, proposal.id, 'refuse', '重复');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: MSG.correctionDecided });
  });

  it('a refusal keeps the text; its reason is shown to the author and to nobody else', async () => {
    const book = await makeBook(h, { title: '大學', volumes: [1], texts: [['大學之道在明明德']] });
    const pageId = book.pageIds[0]!;
    const author = await makeReader(h, 'author');
    const other = await makeReader(h, 'other');
    const id = (
      await propose(author.cookie, pageId, { line: 0, start: 0, original: '大', proposed: '太' })
    ).json<TextCorrection>().id;
    const refused = await decide(staff.cookie, id, 'refuse', '原刻即作大');
    expect(refused.statusCode).toBe(200);
    expect(await pageText(pageId)).toBe('大學之道在明明德');

    const mine = (
      await h.request({ method: 'GET', url: `/api/pages/${pageId}/corrections`, cookie: author.cookie })
    ).json<{
      records: TextCorrection[];
    }>().records;
    expect(mine).toEqual([expect.objectContaining({ id, status: 'refused', refuseReason: '原刻即作大' })]);
    const theirs = await h.request({
      method: 'GET',
      url: `/api/pages/${pageId}/corrections`,
      cookie: other.cookie,
    });
    expect(theirs.json()).toEqual({ records: [] });
    // Readers cannot see the queue or decide.
    const queue = await h.request({ method: 'GET', url: '/api/admin/corrections', cookie: other.cookie });
    expect(queue.statusCode).toBe(403);
    const otherId = (
      await propose(other.cookie, pageId, { line: 0, start: 1, original: '學', proposed: '斈' })
    ).json<TextCorrection>().id;
    expect((await decide(author.cookie, otherId, 'accept')).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: `/api/pages/${pageId}/corrections` })).statusCode).toBe(
      401,
    );
  });

  it('bad proposals get their message and change nothing', async () => {
    const book = await makeBook(h, { title: '中庸', volumes: [1], texts: [['天命之謂性']] });
    const pageId = book.pageIds[0]!;
    const reader = await makeReader(h, 'careful');
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [
        { line: 0, start: 0, original: '天命', proposed: '天' },
        400,
        MSG.correctionLengthMismatch.replace('{n}', '2'),
      ],
      [{ line: 0, start: 0, original: '天命', proposed: '天命' }, 400, MSG.correctionUnchanged],
      [{ line: 0, start: 0, original: '天命' }, 400, MSG.correctionEmpty],
      [{ line: 0, start: 1, original: '天命', proposed: '大命' }, 409, MSG.correctionOriginalChanged],
      [{ line: 3, start: 0, original: '天', proposed: '大' }, 409, MSG.correctionOriginalChanged],
      [{ line: 0, start: 0, original: '天', proposed: '<b>大</b>' }, 400, MSG.noHtml],
      [{ line: 0, start: 0, original: '天', note: '字'.repeat(201) }, 400, MSG.correctionNoteTooLong],
    ];
    for (const [body, status, message] of cases) {
      const response = await propose(reader.cookie, pageId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json<{ message: string }>().message).toContain(message);
    }
    expect(
      (await propose(undefined, pageId, { line: 0, start: 0, original: '天', proposed: '大' })).statusCode,
    ).toBe(401);
    const mine = await h.request({
      method: 'GET',
      url: `/api/pages/${pageId}/corrections`,
      cookie: reader.cookie,
    });
    expect(mine.json()).toEqual({ records: [] });
  });

  it('a restricted book’s page takes no proposal from a reader who may not read it', async () => {
    const book = await makeBook(h, { title: '秘閣書', isOpen: false, volumes: [1], texts: [['秘書']] });
    const reader = await makeReader(h, 'outsider');
    const response = await propose(reader.cookie, book.pageIds[0]!, {
      line: 0,
      start: 0,
      original: '秘',
      proposed: '祕',
    });
    expect(response.statusCode).toBe(403);
  });

  it('a proposal made on text that changed since is not applied over the change', async () => {
    const book = await makeBook(h, { title: '詩經', volumes: [1], texts: [['關關雎鳩']] });
    const pageId = book.pageIds[0]!;
    const reader = await makeReader(h, 'late');
    const id = (
      await propose(reader.cookie, pageId, { line: 0, start: 2, original: '雎', proposed: '睢' })
    ).json<TextCorrection>().id;
    // Staff proofread the same character first.
    const { ocr } = (
      await h.request({ method: 'GET', url: `/api/pages/${pageId}/ocr`, cookie: staff.cookie })
    ).json<{ ocr: OcrJson }>();
    ocr.ocr_res.content[0]!.words[2]!.word = '鴡';
    await h.request({ method: 'PUT', url: `/api/pages/${pageId}/ocr`, cookie: staff.cookie, body: { ocr } });
    const accepted = await decide(staff.cookie, id, 'accept');
    expect(accepted.statusCode).toBe(409);
    expect(accepted.json()).toMatchObject({ message: MSG.correctionStale });
    expect(await pageText(pageId)).toBe('關關鴡鳩');
    // Still pending: staff may refuse it.
    expect((await decide(staff.cookie, id, 'refuse', '已另行校正')).statusCode).toBe(200);
  });

  it(`a reader proposes at most ${CORRECTION_LIMITS.perHour} an hour`, async () => {
    const book = await makeBook(h, { title: '爾雅', volumes: [1], texts: [['釋詁初哉首基']] });
    const pageId = book.pageIds[0]!;
    const reader = await makeReader(h, 'busy');
    for (let i = 0; i < CORRECTION_LIMITS.perHour; i++) {
      const ok = await propose(reader.cookie, pageId, {
        line: 0,
        start: 0,
        original: '釋',
        note: `第${i}条`,
      });
      expect(ok.statusCode).toBe(200);
    }
    const over = await propose(reader.cookie, pageId, { line: 0, start: 0, original: '釋', note: '再一条' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      message: MSG.correctionTooMany.replace('{n}', String(CORRECTION_LIMITS.perHour)),
    });
    // A flag accepted is marked as dealt with and leaves the text as it is.
    const first = (
      await h.request({
        method: 'GET',
        url: `/api/admin/corrections?imageId=${pageId}&pageSize=50`,
        cookie: staff.cookie,
      })
    ).json<{ total: number; records: QueuedCorrection[] }>();
    expect(first.total).toBe(CORRECTION_LIMITS.perHour);
    const flag = await decide(staff.cookie, first.records[0]!.id, 'accept');
    expect(flag.json()).toMatchObject({ status: 'accepted', version: null, proposed: null });
    expect(await pageText(pageId)).toBe('釋詁初哉首基');
  });
});
