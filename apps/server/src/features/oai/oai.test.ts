import { parseDocument } from 'htmlparser2';
import { DomUtils } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBook } from '../../../test/catalog-factory.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';

/** The protocol's answers and error conditions (OAI-PMH 2.0 §3.6), as a harvester receives them. */
describe('OAI-PMH protocol', () => {
  let h: HttpHarness;
  let bookId = 0;

  beforeAll(async () => {
    h = await createHttpHarness('sqlite', { OAI_PAGE_SIZE: '1' });
    await h.context.repos.classifications.upsert({ code: 'JING', name: '經部', parentId: null, sort: 1 });
    const jing = (await h.context.repos.classifications.findByCode('JING'))!.id;
    await h.context.repos.classifications.upsert({ code: 'JING.SHI', name: '詩類', parentId: jing, sort: 1 });
    bookId = (await createBook(h.context, { title: '詩經', classCode: 'JING.SHI', volumes: [1] })).bookId;
    await createBook(h.context, { title: '毛詩正義', classCode: 'JING.SHI', volumes: [1] });
  }, 120_000);
  afterAll(async () => h?.close());

  const get = async (query: string) => {
    const response = await h.request({ method: 'GET', url: `/oai?${query}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
    const doc = parseDocument(response.body, { xmlMode: true });
    const find = (name: string) => DomUtils.findAll((e) => e.name === name, doc.children);
    const errors = find('error').map((e) => e.attribs.code);
    return { body: response.body, find, errors, request: find('request')[0]! };
  };
  const errorOf = async (query: string) => (await get(query)).errors;

  it('identifies the repository', async () => {
    const { find, errors } = await get('verb=Identify');
    expect(errors).toEqual([]);
    const text = (name: string) => DomUtils.textContent(find(name)[0]!);
    expect(text('repositoryName')).toBe('古籍数字图书馆');
    expect(text('baseURL')).toBe('http://localhost:80/oai');
    expect(text('protocolVersion')).toBe('2.0');
    expect(text('deletedRecord')).toBe('persistent');
    expect(text('granularity')).toBe('YYYY-MM-DDThh:mm:ssZ');
    expect(text('adminEmail')).toBe('postmaster@localhost');
    expect(text('earliestDatestamp')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('lists formats and the classification tree as sets', async () => {
    const formats = await get('verb=ListMetadataFormats');
    expect(formats.find('metadataPrefix').map((e) => DomUtils.textContent(e))).toEqual(['oai_dc', 'mods']);
    const sets = await get('verb=ListSets');
    expect(sets.find('setSpec').map((e) => DomUtils.textContent(e))).toEqual(['JING', 'JING:SHI']);
    expect(sets.find('setName').map((e) => DomUtils.textContent(e))).toEqual(['經部', '經部 > 詩類']);
  });

  it('answers a bad or missing verb with badVerb and a request element without attributes', async () => {
    for (const query of ['', 'verb=Harvest', 'verb=Identify&verb=Identify', 'verb=identify']) {
      const { errors, request } = await get(query);
      expect(errors, query).toEqual(['badVerb']);
      expect(request.attribs).toEqual({});
    }
  });

  it('answers illegal, missing, repeated or malformed arguments with badArgument', async () => {
    for (const query of [
      'verb=Identify&metadataPrefix=oai_dc',
      'verb=ListRecords',
      'verb=GetRecord&metadataPrefix=oai_dc',
      'verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc',
      'verb=ListRecords&metadataPrefix=oai_dc&from=2026-13-01',
      'verb=ListRecords&metadataPrefix=oai_dc&from=2026-02-30',
      'verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-01T00:00:00',
      'verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-01&until=2026-02-01T00:00:00Z',
      'verb=ListRecords&metadataPrefix=oai_dc&from=2026-02-01&until=2026-01-01',
      'verb=ListRecords&metadataPrefix=oai_dc&set=a b',
      'verb=ListIdentifiers&resumptionToken=abc&metadataPrefix=oai_dc',
    ]) {
      const { errors, request } = await get(query);
      expect(errors, query).toEqual(['badArgument']);
      expect(request.attribs).toEqual({});
    }
  });

  it('refuses unknown formats, identifiers and tokens with their codes', async () => {
    expect(await errorOf('verb=ListRecords&metadataPrefix=marc21')).toEqual(['cannotDisseminateFormat']);
    expect(await errorOf(`verb=GetRecord&metadataPrefix=marc21&identifier=oai:localhost:${bookId}`)).toEqual([
      'cannotDisseminateFormat',
    ]);
    for (const identifier of [
      'oai:localhost:999999',
      'oai:other.org:1',
      'oai:localhost:1x',
      'oai:localhost:0',
    ])
      expect(
        await errorOf(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier}`),
        identifier,
      ).toEqual(['idDoesNotExist']);
    expect(await errorOf('verb=ListMetadataFormats&identifier=oai:localhost:999999')).toEqual([
      'idDoesNotExist',
    ]);
    for (const token of ['abc', '!!!', Buffer.from('["oai_dc",null,null,null,-1,0]').toString('base64url')])
      expect(await errorOf(`verb=ListRecords&resumptionToken=${token}`), token).toEqual([
        'badResumptionToken',
      ]);
    expect(await errorOf('verb=ListSets&resumptionToken=abc')).toEqual(['badResumptionToken']);
    expect(await errorOf('verb=ListRecords&metadataPrefix=oai_dc&from=3000-01-01')).toEqual([
      'noRecordsMatch',
    ]);
    expect(await errorOf('verb=ListIdentifiers&metadataPrefix=oai_dc&set=ZI')).toEqual(['noRecordsMatch']);
  });

  it('echoes the arguments of a valid request and pages with resumption tokens', async () => {
    const first = await get('verb=ListIdentifiers&metadataPrefix=oai_dc&set=JING');
    expect(first.request.attribs).toEqual({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc', set: 'JING' });
    const token = first.find('resumptionToken')[0]!;
    expect(token.attribs).toEqual({ completeListSize: '2', cursor: '0' });
    const second = await get(`verb=ListIdentifiers&resumptionToken=${DomUtils.textContent(token)}`);
    expect(second.errors).toEqual([]);
    const last = second.find('resumptionToken')[0]!;
    expect(last.attribs).toEqual({ completeListSize: '2', cursor: '1' });
    expect(DomUtils.textContent(last)).toBe('');
    const headers = [...first.find('identifier'), ...second.find('identifier')].map((e) =>
      DomUtils.textContent(e),
    );
    expect(new Set(headers).size).toBe(2);
  });

  it('takes the same arguments by POST, and answers any origin', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/oai',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(`oai:localhost:${bookId}`)}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.body).toContain('<dc:title>詩經</dc:title>');
    const huge = await h.app.inject({
      method: 'POST',
      url: '/oai',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `verb=Identify&x=${'a'.repeat(20_000)}`,
    });
    expect(huge.statusCode).toBe(413);
  });

  it('keeps characters XML cannot hold out of the document', async () => {
    await h.context.repos.catalog.updateBook(bookId, { author: 'a\u0001b\u0008c' }, h.context.database.db);
    const { body, errors } = await get(
      `verb=GetRecord&metadataPrefix=mods&identifier=oai:localhost:${bookId}`,
    );
    expect(errors).toEqual([]);
    expect(body).toContain('<namePart>abc</namePart>');
  });
});
