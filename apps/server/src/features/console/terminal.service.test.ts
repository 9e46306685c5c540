import { beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../test/helpers.ts';
import { fakeRepository, MemoryStore } from '../../../test/fakes/memory-store.ts';
import type { TerminalRepository, TerminalRow } from './terminal.repository.ts';
import { TerminalService } from './terminal.service.ts';

/**
 * In-memory stand-ins (test/fakes/): a terminal table and the audit log, both inside the fake
 * transaction, which keeps what was written on success and puts everything back when its work throws;
 * every write must be made in the transaction it was handed.
 */
class Store extends MemoryStore<{ terminals: Array<TerminalRow & { token_hash: string }> }> {
  constructor() {
    super({ terminals: [] });
  }

  get terminals() {
    return this.tables.terminals;
  }

  readonly repository = fakeRepository<TerminalRepository>('terminals', {
    create: (entry, tx) => {
      this.check(tx);
      const row = {
        id: this.terminals.length + 1,
        name: entry.name,
        token_hash: entry.tokenHash,
        created_at: entry.createdAt,
        last_seen_at: null,
        revoked_at: null,
      };
      this.terminals.push(row);
      return Promise.resolve(row);
    },
    revoke: (id, now, tx) => {
      this.check(tx);
      const row = this.terminals.find((t) => t.id === id);
      if (row) row.revoked_at ??= now;
      return Promise.resolve(row && { ...row });
    },
  });
}

describe('reading-room terminals: each change and its audit record are one transaction', () => {
  let store: Store;
  let service: TerminalService;
  beforeEach(() => {
    store = new Store();
    service = new TerminalService(store.repository, new FakeClock(), store.auditor, store.transact);
  });

  it('issuing a terminal writes exactly one record; if the record fails, no terminal is issued', async () => {
    store.failNextAudit = true;
    await expect(service.create('一楼 1 号机', 7)).rejects.toThrow('audit log unavailable');
    expect(store.terminals).toEqual([]);
    expect(store.audit).toEqual([]);

    const created = await service.create('一楼 2 号机', 7);
    expect(store.terminals).toHaveLength(1);
    expect(store.audit).toEqual([
      {
        actorId: 7,
        action: 'terminal.create',
        target: `terminal:${created.id}`,
        before: null,
        after: { name: '一楼 2 号机' },
      },
    ]);
  });

  it('revoking writes exactly one record; a failed revocation or record leaves the terminal and the log as they were', async () => {
    const created = await service.create('二楼 3 号机', 7);
    store.audit = [];

    await expect(service.revoke(7, 999)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(store.audit).toEqual([]);

    store.failNextAudit = true;
    await expect(service.revoke(7, created.id)).rejects.toThrow('audit log unavailable');
    expect(store.terminals[0]!.revoked_at).toBeNull();
    expect(store.audit).toEqual([]);

    const revoked = await service.revoke(7, created.id);
    expect(revoked.revokedAt).not.toBeNull();
    expect(store.audit).toEqual([
      {
        actorId: 7,
        action: 'terminal.revoke',
        target: `terminal:${created.id}`,
        before: { revokedAt: null },
        after: { revokedAt: revoked.revokedAt },
      },
    ]);
  });
});
