import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactor } from '../../db/query.ts';
import { createTestContext, DIALECTS, type TestContext } from '../../../test/helpers.ts';
import { AdminService } from './admin.service.ts';
import { ClassificationService } from './classification.service.ts';

describe.each(DIALECTS)('classification dictionary on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('makes a change and its audit record one transaction: if the record fails, nothing changed', async () => {
    const { repos, clock, database } = t.context;
    // An audit log that cannot be written (its insert fails after the change was made).
    class BrokenAudit extends AdminService {
      override record(): Promise<void> {
        return Promise.reject(new Error('audit log unavailable'));
      }
    }
    const transact = transactor(database.db);
    const broken = new ClassificationService(
      repos.classifications,
      new BrokenAudit(repos.audit, repos.jobs, repos.users, clock, transact),
      transact,
    );
    const actor = await repos.users.create(
      { login_name: 'cls-admin', password_hash: 'x' },
      ['admin'],
      database.db,
    );
    await expect(broken.create(actor, { parentId: null, code: 'ROLLBACK', name: '回滾部' })).rejects.toThrow(
      'audit log unavailable',
    );
    expect(await repos.classifications.findByCode('ROLLBACK')).toBeUndefined();

    const service = t.context.services.classifications;
    await service.create(actor, { parentId: null, code: 'KEPT', name: '保留部' });
    const kept = await repos.classifications.findByCode('KEPT');
    await expect(broken.rename(actor, kept!.id, '改名')).rejects.toThrow('audit log unavailable');
    await expect(broken.remove(actor, kept!.id)).rejects.toThrow('audit log unavailable');
    expect(await repos.classifications.findByCode('KEPT')).toMatchObject({ name: '保留部' });
    const { rows } = await repos.audit.page({ action: 'class.create', offset: 0, limit: 10 });
    expect(rows.map((r) => r.target)).toEqual(['class:KEPT']);
  });
});
