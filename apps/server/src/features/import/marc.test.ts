import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarcField } from '@natlibfi/marc-record';
import { MSG, type MarcImported, type MarcPreview } from '@guji/shared';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, multipartFile, type HttpHarness } from '../../../test/http.ts';
import { makeBook, makeReader, makeStaff, type MadeUser } from '../../../test/factories.ts';
import { iso2709Record, MARC_LIMITS, marcXmlCollection, type MarcData } from './marc-codec.ts';

const data = (tag: string, ind: string, ...pairs: Array<[string, string]>): MarcField => ({
  tag,
  ind1: ind[0]!,
  ind2: ind[1]!,
  subfields: pairs.map(([code, value]) => ({ code, value })),
});

let seq = 0;
/** A MARC21 record with romanized fields and their CJK script in 880 pairs. */
function marc21(call: string, title: string, extra: MarcField[] = []): MarcData {
  return {
    leader: '00000nam a2200000 i 4500',
    fields: [
      { tag: '001', value: `m21-${call}` },
      data('100', '1 ', ['6', '880-01'], ['a', 'Ji, Yun,']),
      data('245', '10', ['6', '880-02'], ['a', 'Siku quanshu /']),
      data('250', '  ', ['a', '清乾隆武英殿刻本']),
      data('300', '  ', ['a', '4冊 ;'], ['c', '26 cm']),
      data('500', '  ', ['a', '有朱筆圈點']),
      data('852', '8 ', ['h', call]),
      data('880', '1 ', ['6', '100-01/$1'], ['a', '(清)紀昀']),
      data('880', '10', ['6', '245-02/$1'], ['a', `${title} /`]),
      ...extra,
    ],
  };
}
/** A CNMARC record, Chinese in its fields. */
function cnmarc(call: string, title: string, extra: MarcField[] = []): MarcData {
  return {
    leader: '00000nam0 2200000   450 ',
    fields: [
      { tag: '001', value: `cn-${call}` },
      data('200', '1 ', ['a', title], ['f', '(宋)朱熹撰']),
      data('205', '  ', ['a', '明嘉靖刻本']),
      data('215', '  ', ['a', '二冊']),
      data('300', '  ', ['a', '鈐藏印']),
      data('701', ' 0', ['c', '(宋)'], ['a', '朱熹'], ['4', '撰']),
      data('905', '  ', ['d', call]),
      ...extra,
    ],
  };
}
const iso = (...records: MarcData[]) => Buffer.concat(records.map(iso2709Record));
const xml = (...records: MarcData[]) => Buffer.from(marcXmlCollection(records));

describe.each(DIALECTS)('MARC import and export on %s', (dialect) => {
  let h: HttpHarness;
  let staff: MadeUser;
  let reader: MadeUser;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    staff = await makeStaff(h, ['catalogAdmin'], 'marcstaff');
    reader = await makeReader(h, 'marcreader');
  });
  afterAll(async () => h.close());

  const call = () => `MARC-${dialect}-${++seq}`;
  const send = (
    what: 'preview' | 'import',
    file: Buffer,
    format = 'auto',
    cookie = staff.cookie,
    name = 'records.mrc',
  ) => {
    const { payload, contentType } = multipartFile('file', name, file);
    return h.request({
      method: 'POST',
      url: `/api/admin/marc/${what}?format=${format}`,
      cookie,
      payload,
      headers: { 'content-type': contentType },
    });
  };
  const preview = async (file: Buffer, format = 'auto') => {
    const response = await send('preview', file, format);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MarcPreview>();
  };
  const importFile = async (file: Buffer, format = 'auto') => {
    const response = await send('import', file, format);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MarcImported>();
  };
  const byCall = async (callNumber: string) =>
    await h.context.database.db
      .selectFrom('books')
      .selectAll()
      .where('call_number', '=', callNumber)
      .execute();

  it('previews MARC21 (ISO 2709, 880 fields) without writing, imports it, and a re-import updates in place', async () => {
    const [a, b] = [call(), call()];
    const file = iso(marc21(a, '四庫全書總目𠮷'), marc21(b, '欽定四庫全書簡明目錄'));
    const seen = await preview(file);
    expect(seen).toMatchObject({
      format: 'marc21',
      syntax: 'iso2709',
      counts: { new: 2, changed: 0, unchanged: 0, error: 0 },
    });
    expect(seen.records[0]).toMatchObject({
      index: 1,
      controlNumber: `m21-${a}`,
      title: '四庫全書總目𠮷',
      status: 'new',
      bookId: null,
    });
    expect(seen.records[0]!.changes).toEqual(
      expect.arrayContaining([
        { field: 'author', old: null, new: '紀昀' },
        { field: 'publishDynasty', old: null, new: '清' },
        { field: 'bookNumber', old: null, new: '4' },
      ]),
    );
    expect(await byCall(a)).toEqual([]); // the preview wrote nothing

    expect(await importFile(file)).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    const [book] = await byCall(a);
    expect(book).toMatchObject({
      title: '四庫全書總目𠮷',
      author: '紀昀',
      publish_dynasty: '清',
      coverage_dynasty: '清乾隆武英殿刻本',
      book_number: 4,
      notes: '有朱筆圈點',
      source_key: `m21-${a}`.replace(/^/, 'marc:'),
      is_visible: 0,
      owner_id: null,
    });

    // The same file again changes nothing; an edited record updates the book it matched.
    expect((await preview(file)).counts).toEqual({ new: 0, changed: 0, unchanged: 2, error: 0 });
    const edited = marc21(a, '四庫全書總目𠮷', [data('250', '  ', ['a', '清同治廣東書局刻本'])]);
    edited.fields = edited.fields.filter(
      (f) => !(f.tag === '250' && 'subfields' in f && f.subfields[0]!.value === '清乾隆武英殿刻本'),
    );
    const changed = await preview(xml(edited));
    expect(changed.records[0]).toMatchObject({
      status: 'changed',
      bookId: book!.id,
      matchedBy: 'controlNumber',
    });
    expect(changed.records[0]!.changes).toEqual([
      { field: 'coverageDynasty', old: '清乾隆武英殿刻本', new: '清同治廣東書局刻本' },
    ]);
    expect(await importFile(xml(edited))).toMatchObject({ created: 0, updated: 1 });
    expect(await byCall(a)).toHaveLength(1);
    expect((await byCall(a))[0]!.coverage_dynasty).toBe('清同治廣東書局刻本');
    const audit = await h.context.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target', '=', `book:${book!.id}`)
      .execute();
    expect(audit.map((r) => r.action)).toEqual(['book.marc-import', 'book.marc-import']);
  });

  it('imports CNMARC from ISO 2709 and MARCXML, matching an existing book by its call number', async () => {
    const [a, b] = [call(), call()];
    const existing = await makeBook(h, { title: '舊題', callNumber: b, volumes: [1] });
    const seen = await preview(xml(cnmarc(a, '詩經集傳'), cnmarc(b, '四書章句集注')), 'cnmarc');
    expect(seen).toMatchObject({ format: 'cnmarc', syntax: 'marcxml', counts: { new: 1, changed: 1 } });
    expect(seen.records[1]).toMatchObject({ bookId: existing.bookId, matchedBy: 'callNumber' });
    expect(seen.records[1]!.changes).toContainEqual({ field: 'title', old: '舊題', new: '四書章句集注' });
    await importFile(iso(cnmarc(a, '詩經集傳'), cnmarc(b, '四書章句集注')));
    expect((await byCall(a))[0]).toMatchObject({
      title: '詩經集傳',
      author: '朱熹',
      publish_dynasty: '宋',
      book_number: 2,
    });
    // The book that had images keeps them and its switches; only the record's fields changed.
    expect((await byCall(b))[0]).toMatchObject({ id: existing.bookId, title: '四書章句集注', is_visible: 1 });
  });

  it('changes nothing when one record is bad, and names the record and field in Chinese', async () => {
    const [a, b] = [call(), call()];
    await makeBook(h, { title: '原題', callNumber: a, volumes: [1] });
    const bad = marc21(b, '好書', [data('084', '  ', ['a', 'NO.SUCH.CLASS'], ['2', 'clc'])]);
    const file = iso(marc21(a, '新題'), bad);
    const seen = await preview(file);
    expect(seen.counts).toMatchObject({ changed: 1, error: 1 });
    expect(seen.records[1]!.errors).toEqual([
      `第 2 条记录（001 m21-${b}），字段 084$a（分类）：分类“NO.SUCH.CLASS”不在分类字典中，请先在分类字典中添加`,
    ]);
    const refused = await send('import', file);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'MARC_RECORD',
      message: `第 2 条记录（001 m21-${b}），字段 084$a（分类）：分类“NO.SUCH.CLASS”不在分类字典中，请先在分类字典中添加；文件未导入，目录没有任何改动`,
    });
    expect((await byCall(a))[0]!.title).toBe('原題');
    expect(await byCall(b)).toEqual([]);

    // With the class in the dictionary (found by code or by name) the same file goes in.
    await h.context.repos.classifications.upsert({
      code: 'NO.SUCH.CLASS',
      name: '史部·目錄類',
      parentId: null,
      sort: 99,
    });
    expect((await preview(file)).counts).toMatchObject({ changed: 1, new: 1, error: 0 });
  });

  it('refuses a note (500 $a) with a tag, as the catalogue form does; nothing is imported', async () => {
    // Issue 30 item 8: MARC 500 $a was stored as sent.
    const b = call();
    const file = iso(marc21(b, '標記', [data('500', '  ', ['a', '<img src=x onerror=alert(1)>'])]));
    const seen = await preview(file);
    expect(seen.counts).toMatchObject({ error: 1 });
    expect(seen.records[0]!.errors.join('')).toContain(MSG.noHtml);
    expect((await send('import', file)).statusCode).toBe(400);
    expect(await byCall(b)).toEqual([]);
  });

  it('refuses a record without a title, two records of one book, and a format that does not match', async () => {
    const [a, u] = [call(), call()];
    const untitled = marc21(u, 'x');
    untitled.fields = untitled.fields.filter(
      (f) =>
        f.tag !== '245' && !(f.tag === '880' && 'subfields' in f && f.subfields[0]!.value!.startsWith('245')),
    );
    untitled.fields.push(data('245', '10', ['c', 'no title']));
    const seen = await preview(iso(untitled, marc21(a, '甲'), marc21(a, '乙')));
    expect(seen.records.map((r) => r.status)).toEqual(['error', 'new', 'error']);
    expect(seen.records[0]!.errors[0]).toBe(`第 1 条记录（001 m21-${u}）：缺少书名（245$a）`);
    expect(seen.records[2]!.errors[0]).toContain('与第 2 条记录是同一部古籍');
    const wrong = await send('preview', xml(cnmarc(call(), '書')), 'marc21');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ message: string }>().message).toBe(
      '所选格式为 MARC21，但文件中的记录是 CNMARC（有 200 题名字段），请重新选择',
    );
  });

  it('exports a book and the catalogue as MARCXML that imports back unchanged, in both formats', async () => {
    const a = call();
    const { bookId } = await makeBook(h, {
      title: '論語集注𠮷',
      author: '朱熹',
      publishDynasty: '宋',
      callNumber: a,
      volumes: [1],
    });
    for (const format of ['marc21', 'cnmarc'] as const) {
      const one = await h.request({ method: 'GET', url: `/api/books/${bookId}/marcxml?format=${format}` });
      expect(one.statusCode).toBe(200);
      // MARC21 as MARCXML; CNMARC as MarcXchange (ISO 25577), which says its format (issue 31 item 5).
      expect(one.headers['content-type']).toContain(
        format === 'marc21' ? 'application/marcxml+xml' : 'application/xml',
      );
      expect(one.body).toContain(
        format === 'marc21'
          ? '<collection xmlns="http://www.loc.gov/MARC21/slim">'
          : '<collection xmlns="info:lc/xmlns/marcxchange-v1">\n<record format="UNIMARC" type="Bibliographic">',
      );
      expect(one.headers['content-disposition']).toBe(`attachment; filename="book-${bookId}-${format}.xml"`);
      expect(one.body).toContain('論語集注𠮷');
      const back = await preview(Buffer.from(one.body));
      expect(back.records).toEqual([
        expect.objectContaining({ status: 'unchanged', bookId, matchedBy: 'controlNumber' }),
      ]);
      const all = await h.request({
        method: 'GET',
        url: `/api/marcxml?format=${format}`,
        cookie: staff.cookie,
      });
      expect(all.statusCode).toBe(200);
      const whole = await preview(Buffer.from(all.body));
      expect(whole.counts).toMatchObject({ new: 0, changed: 0, error: 0 });
      expect(whole.records.find((r) => r.bookId === bookId)?.status).toBe('unchanged');
    }
  });

  it('keeps hidden books out of the public export and a reader out of the import', async () => {
    const a = call();
    const { bookId } = await makeBook(h, {
      title: '秘閣藏書',
      callNumber: a,
      isVisible: false,
      volumes: [1],
    });
    const anonymous = await h.request({ method: 'GET', url: '/api/marcxml' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.body).not.toContain('秘閣藏書');
    expect((await h.request({ method: 'GET', url: '/api/marcxml', cookie: staff.cookie })).body).toContain(
      '秘閣藏書',
    );
    const hidden = await h.request({
      method: 'GET',
      url: `/api/books/${bookId}/marcxml`,
      cookie: reader.cookie,
    });
    expect(hidden.statusCode).toBe(404);
    expect(
      (await h.request({ method: 'GET', url: `/api/books/${bookId}/marcxml`, cookie: staff.cookie }))
        .statusCode,
    ).toBe(200);

    const file = iso(marc21(call(), '讀者之書'));
    for (const what of ['preview', 'import'] as const) {
      expect((await send(what, file, 'auto', reader.cookie)).statusCode).toBe(403);
      expect((await send(what, file, 'auto', '')).statusCode).toBe(401);
    }
  });

  it('refuses hostile files with a Chinese message and changes nothing', async () => {
    const a = call();
    const whole = iso(marc21(a, '截斷之書'));
    const cut = await send('import', whole.subarray(0, whole.length - 10));
    expect(cut.statusCode).toBe(400);
    expect(cut.json<{ message: string }>().message).toMatch(/^第 1 条记录不完整/);
    const laughs = `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><collection><record><datafield tag="245" ind1="1" ind2="0"><subfield code="a">&b;</subfield></datafield></record></collection>`;
    const bomb = await send('import', Buffer.from(laughs));
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json<{ message: string }>().message).toContain('不能含 DOCTYPE 或实体声明');
    // Comments before the root element, read in one pass (issue 30 item 1: 30 of them stalled the server).
    const comments = Buffer.from(`${'<!--a-->'.repeat(3000)}X`);
    for (const what of ['preview', 'import'] as const) {
      const stalled = await send(what, comments);
      expect(stalled.statusCode).toBe(400);
      expect(stalled.json<{ message: string }>().message).toBe(
        '不是 MARCXML 文件：根元素应为 collection 或 record',
      );
    }
    const huge = await send('preview', Buffer.alloc(MARC_LIMITS.fileBytes + 10, 0x30));
    expect(huge.statusCode).toBe(413);
    expect(huge.json<{ message: string }>().message).toBe('文件过大：MARC 文件最大 20 MB');
    expect(await byCall(a)).toEqual([]);
  });
});
