import { beforeEach, describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import { FakeClock } from '../../../test/helpers.ts';
import type { Auditor } from '../../audit/auditor.ts';
import type { TerminalRepository, TerminalRow } from './terminal.repository.ts';
import { TerminalService } from './terminal.service.ts';

interface AuditRecord {
  actorId: number | null;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/**
 * In-memory stand-ins: a terminal table and an audit log that both join the fake transaction, which
 * keeps what was written on success and puts everything back when its work throws.
 */
class Store {
  terminals: Array<TerminalRow & { token_hash: string }> = [];
  audit: AuditRecord[] = [];
  /** Makes the next audit write fail (an audit log that cannot be written). */
  failNextAudit = false;
  readonly tx = {} as DbOrTx;
  private inTransaction = false;

  readonly transact: Transact = async (work) => {
    const saved = { terminals: structuredClone(this.terminals), audit: structuredClone(this.audit) };
    this.inTransaction = true;
    try {
      return await work(this.tx);
    } catch (error) {
      this.terminals = saved.terminals;
      this.audit = saved.audit;
      throw error;
    } finally {
      this.inTransaction = false;
    }
  };

  /** Every write must be in the transaction it was handed. */
  check(tx: DbOrTx | undefined): void {
    if (!this.inTransaction || tx !== this.tx) throw new Error('written outside the transaction');
  }

  readonly repository = {
    create: (entry: { name: string; tokenHash: string; createdAt: string }, tx?: DbOrTx) => {
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
    revoke: (id: number, now: string, tx?: DbOrTx) => {
      this.check(tx);
      const row = this.terminals.find((t) => t.id === id);
      if (row) row.revoked_at ??= now;
      return Promise.resolve(row && { ...row });
    },
  } as unknown as TerminalRepository;

  readonly auditor: Auditor = {
    record: (actorId, action, target, before, after, tx) => {
      this.check(tx);
      if (this.failNextAudit) {
        this.failNextAudit = false;
        return Promise.reject(new Error('audit log unavailable'));
      }
      this.audit.push({ actorId, action, target, before, after });
      return Promise.resolve();
    },
  };
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
