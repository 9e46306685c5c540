import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBook } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';

/**
 * A whole harvest of the catalogue by an independent OAI-PMH client: HTTP::OAI's `oai_pmh` (Debian's
 * libhttp-oai-perl), which follows resumption tokens itself. Pages of 2 records, so every list resumes.
 */
const run = promisify(execFile);

interface Harvested {
  identifier: string;
  datestamp: string;
  status: string;
  sets: string[];
  metadata: string;
}

async function harvest(base: string, ...args: string[]): Promise<Harvested[]> {
  const { stdout } = await run('oai_pmh', [...args, `${base}/oai`], { maxBuffer: 64 * 1024 * 1024 });
  return stdout
    .split('\f')
    .filter((chunk) => chunk.trim())
    .map((chunk) => {
      const [head = '', ...rest] = chunk.split('\n\n');
      const field = (name: string) =>
        head
          .split('\n')
          .filter((l) => l.startsWith(`${name}: `))
          .map((l) => l.slice(name.length + 2));
      return {
        identifier: field('identifier')[0] ?? '',
        datestamp: field('datestamp')[0] ?? '',
        status: field('status')[0] ?? '',
        sets: field('setSpec'),
        metadata: rest.join('\n\n'),
      };
    });
}

describe.each(DIALECTS)('OAI-PMH harvest with an independent client (%s)', (dialect) => {
  let h: HttpHarness;
  let base: string;
  const ids: Record<string, number> = {};
  const id = (bookId: number) => `oai:guji.example.org:${bookId}`;

  beforeAll(async () => {
    h = await createHttpHarness(dialect, { OAI_PAGE_SIZE: '2', OAI_REPOSITORY_ID: 'guji.example.org' });
    const { context } = h;
    await context.repos.classifications.upsert({ code: 'SHI', name: '史部', parentId: null, sort: 1 });
    const shi = (await context.repos.classifications.findByCode('SHI'))!.id;
    await context.repos.classifications.upsert({
      code: 'SHI.ZHENGSHI',
      name: '正史類',
      parentId: shi,
      sort: 1,
    });
    await context.repos.classifications.upsert({ code: 'JI', name: '集部', parentId: null, sort: 2 });
    const book = async (key: string, fields: Parameters<typeof createBook>[1]) => {
      ids[key] = (await createBook(context, { volumes: [1, 1], pageSize: [200, 150], ...fields })).bookId;
    };
    await book('shiji', {
      title: '史記',
      author: '（漢）司馬遷撰',
      publishDynasty: '西漢',
      coverageDynasty: '清乾隆間文淵閣四庫全書寫本',
      callNumber: 'T-史-001 <&>',
      classCode: 'SHI.ZHENGSHI',
      isOpen: false,
    });
    await context.repos.catalog.updateBook(
      ids.shiji!,
      { notes: '卷端題「史記卷第一」。' },
      context.database.db,
    );
    await book('hanshu', { title: '漢書', author: '（漢）班固撰', classCode: 'SHI.ZHENGSHI' });
    await book('shi', { title: '史通', classCode: 'SHI' });
    await book('wenxuan', { title: '文選', classCode: 'JI' });
    await book('hidden', { title: '未公開之書', classCode: 'JI', isVisible: false });
    await book('gone', { title: '將刪之書', classCode: 'JI' });
    await book('later', { title: '將隱之書', classCode: 'SHI' });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  }, 240_000);
  afterAll(async () => h?.close());

  it('harvests every visible book in oai_dc and in mods, following the resumption tokens', async () => {
    const visible = ['shiji', 'hanshu', 'shi', 'wenxuan', 'gone', 'later'].map((k) => id(ids[k]!));
    for (const prefix of ['oai_dc', 'mods']) {
      const records = await harvest(base, '-X', 'ListRecords', '--metadataPrefix', prefix);
      expect(records.map((r) => r.identifier).sort()).toEqual([...visible].sort());
      expect(
        records.every((r) => r.status === '' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(r.datestamp)),
      ).toBe(true);
      const shiji = records.find((r) => r.identifier === id(ids.shiji!))!;
      expect(shiji.sets).toEqual(['SHI:ZHENGSHI']);
      expect(shiji.metadata).toContain('史記');
      expect(shiji.metadata).toContain('（漢）司馬遷撰');
      expect(shiji.metadata).toContain('T-史-001 &lt;&amp;&gt;');
      expect(shiji.metadata).toContain('卷端題「史記卷第一」。');
      expect(shiji.metadata).toMatch(new RegExp(`${base}/iiif/presentation/volumes/\\d+/manifest\\.json`));
    }
    const mods = await harvest(
      base,
      '-X',
      'GetRecord',
      '--metadataPrefix',
      'mods',
      '--identifier',
      id(ids.shiji!),
    );
    const xml = mods[0]!.metadata;
    expect(xml).toContain('<title>史記</title>');
    expect(xml).toContain('<namePart>（漢）司馬遷撰</namePart>');
    expect(xml).toContain('<dateOther type="dynasty">西漢</dateOther>');
    expect(xml).toContain('<edition>清乾隆間文淵閣四庫全書寫本</edition>');
    expect(xml).toContain('<shelfLocator>T-史-001 &lt;&amp;&gt;</shelfLocator>');
    // The client writes attributes back in no fixed order (a Perl hash).
    expect(xml).toMatch(
      /<classification (authority="local" displayLabel="正史類"|displayLabel="正史類" authority="local")>SHI\.ZHENGSHI<\/classification>/,
    );
    expect(xml).toContain('<topic>史部</topic>');
    expect(xml).toContain('<note>卷端題「史記卷第一」。</note>');
    expect(xml.match(/note="IIIF Presentation API 3.0 manifest"/g)).toHaveLength(2);
    expect(xml).toContain('限制閱覽');
  });

  it('lists identifiers, selects by set (with the classes below it) and by datestamp', async () => {
    const all = await harvest(base, '-X', 'ListIdentifiers', '--metadataPrefix', 'oai_dc');
    expect(all).toHaveLength(6);
    const shi = await harvest(base, '-X', 'ListIdentifiers', '--metadataPrefix', 'oai_dc', '--set', 'SHI');
    expect(shi.map((r) => r.identifier).sort()).toEqual(
      ['shiji', 'hanshu', 'shi', 'later'].map((k) => id(ids[k]!)).sort(),
    );
    const zhengshi = await harvest(
      base,
      '-X',
      'ListIdentifiers',
      '--metadataPrefix',
      'oai_dc',
      '--set',
      'SHI:ZHENGSHI',
    );
    expect(zhengshi).toHaveLength(2);
    const stamp = all[0]!.datestamp;
    const since = await harvest(base, '-X', 'ListIdentifiers', '--metadataPrefix', 'oai_dc', '--from', stamp);
    expect(since).toHaveLength(6);
    const day = stamp.slice(0, 10);
    const before = await harvest(
      base,
      '-X',
      'ListIdentifiers',
      '--metadataPrefix',
      'oai_dc',
      '--until',
      '2000-01-01',
    );
    expect(before).toEqual([]);
    expect(
      await harvest(base, '-X', 'ListIdentifiers', '--metadataPrefix', 'oai_dc', '--from', day),
    ).toHaveLength(6);
  });

  it('keeps hidden and deleted books as deleted records, and shows a book again when it returns', async () => {
    const { catalog } = h.context.repos;
    await catalog.deleteBook(ids.gone!, h.context.database.db);
    await catalog.updateBook(ids.later!, { is_visible: 0 }, h.context.database.db);
    await catalog.updateBook(ids.hanshu!, { view_count: 99 }, h.context.database.db); // not a change of the record
    const records = await harvest(base, '-X', 'ListRecords', '--metadataPrefix', 'oai_dc');
    const status = Object.fromEntries(records.map((r) => [r.identifier, r.status]));
    expect(status[id(ids.gone!)]).toBe('deleted');
    expect(status[id(ids.later!)]).toBe('deleted');
    expect(status[id(ids.hidden!)]).toBeUndefined(); // never public: never shown, not even as deleted
    expect(records.find((r) => r.identifier === id(ids.gone!))!.metadata.trim()).toBe('');
    expect(records.find((r) => r.identifier === id(ids.gone!))!.sets).toEqual(['JI']);
    await catalog.updateBook(ids.later!, { is_visible: 1 }, h.context.database.db);
    const again = await harvest(
      base,
      '-X',
      'GetRecord',
      '--metadataPrefix',
      'oai_dc',
      '--identifier',
      id(ids.later!),
    );
    expect(again[0]!.status).toBe('');
    expect(again[0]!.metadata).toContain('將隱之書');
  });
});
