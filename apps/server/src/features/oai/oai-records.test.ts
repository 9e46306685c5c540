import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBook } from '../../../test/catalog-factory.ts';
import { createTestContext, DIALECTS, type TestContext } from '../../../test/helpers.ts';

/**
 * The database keeps what OAI-PMH has shown (migration 0022's triggers): a new datestamp when a shown field
 * changes or a volume is added or renamed, none for other changes; own books only once published.
 */
describe.each(DIALECTS)('OAI record tracking (%s)', (dialect) => {
  let t: TestContext;
  const OLD = '2001-01-01T00:00:00Z';
  const record = async (bookId: number) =>
    t.context.database.db
      .selectFrom('oai_records')
      .selectAll()
      .where('book_id', '=', bookId)
      .executeTakeFirst();
  const age = async (bookId: number) =>
    t.context.database.db
      .updateTable('oai_records')
      .set({ datestamp: OLD })
      .where('book_id', '=', bookId)
      .execute();

  beforeAll(async () => {
    t = await createTestContext(dialect);
  }, 120_000);
  afterAll(async () => t?.close());

  it('dates a record anew when what it shows changes, and not otherwise', async () => {
    const { bookId, volumeIds } = await createBook(t.context, {
      title: '論語',
      volumes: [1],
      classCode: 'JING',
    });
    expect(await record(bookId)).toMatchObject({ deleted: 0, class_code: 'JING' });
    const { catalog } = t.context.repos;

    await age(bookId);
    await catalog.updateBook(bookId, { view_count: 7, refuse_reason: null }, t.context.database.db);
    expect((await record(bookId))!.datestamp).toBe(OLD);

    await catalog.updateBook(bookId, { title: '論語集解', class_code: 'JING.SISHU' }, t.context.database.db);
    expect(await record(bookId)).toMatchObject({ deleted: 0, class_code: 'JING.SISHU' });
    expect((await record(bookId))!.datestamp > OLD).toBe(true);

    await age(bookId);
    await t.context.database.db
      .updateTable('volumes')
      .set({ name: '卷上' })
      .where('id', '=', volumeIds[0]!)
      .execute();
    expect((await record(bookId))!.datestamp > OLD).toBe(true);

    await age(bookId);
    await catalog.updateBook(bookId, { is_open: 0 }, t.context.database.db);
    expect((await record(bookId))!.datestamp > OLD).toBe(true);
  });

  it('shows an own book only once it is published, and keeps it as deleted when withdrawn', async () => {
    const { bookId } = await createBook(t.context, { title: '家藏抄本', volumes: [1], isVisible: false });
    const { catalog } = t.context.repos;
    await catalog.updateBook(bookId, { audit_status: '1' }, t.context.database.db);
    expect(await record(bookId)).toBeUndefined();
    await catalog.updateBook(bookId, { is_visible: 1, audit_status: '2' }, t.context.database.db);
    expect(await record(bookId)).toMatchObject({ deleted: 0 });
    await age(bookId);
    await catalog.updateBook(bookId, { audit_status: '3' }, t.context.database.db);
    const withdrawn = (await record(bookId))!;
    expect(withdrawn.deleted).toBe(1);
    expect(withdrawn.datestamp > OLD).toBe(true);
    await catalog.deleteBook(bookId, t.context.database.db);
    expect(await record(bookId)).toMatchObject({ deleted: 1, datestamp: withdrawn.datestamp });
  });
});
