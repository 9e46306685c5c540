import type { Auditor } from '../../src/audit/auditor.ts';
import type { DbOrTx } from '../../src/db/database.ts';
import type { Transact } from '../../src/db/query.ts';

/** An audit record as the in-memory auditor keeps it. */
export interface AuditEntry {
  actorId: number | null;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/**
 * The state of in-memory repositories (immich's `test/repositories/*.mock.ts`, STYLE.md "Tests"): plain
 * tables a test fills and reads, one transaction that keeps what its work wrote or puts every table back
 * when the work throws, and an audit log inside it that can be told to fail. Service rules run against it
 * in microseconds; the SQL itself is tested on SQLite and PostgreSQL by the repository and HTTP suites.
 */
export class MemoryStore<T extends object> {
  /** The fake transaction handed to repository calls; fakes ignore it (they share `tables`). */
  readonly tx = {} as DbOrTx;
  audit: AuditEntry[] = [];
  /** When set, the next audit write fails (after the change it records was made). */
  failNextAudit = false;
  private nextId = 1;
  private inTransaction = false;

  constructor(public tables: T) {}

  /** A fresh id for a new row, unique in this store. */
  id(): number {
    return this.nextId++;
  }

  readonly transact: Transact = async (work) => {
    const saved = structuredClone({ tables: this.tables, audit: this.audit });
    this.inTransaction = true;
    try {
      return await work(this.tx);
    } catch (error) {
      this.tables = saved.tables;
      this.audit = saved.audit;
      throw error;
    } finally {
      this.inTransaction = false;
    }
  };

  /** A fake write that belongs to a change calls this: one made outside the transaction it was handed fails. */
  check(tx: DbOrTx | undefined): void {
    if (!this.inTransaction || tx !== this.tx) throw new Error('written outside the transaction');
  }

  readonly auditor: Auditor = {
    record: (actorId, action, target, before, after, tx) => {
      this.check(tx);
      if (this.failNextAudit) {
        this.failNextAudit = false;
        return Promise.reject(new Error('audit log unavailable'));
      }
      this.audit.push(structuredClone({ actorId, action, target, before, after }));
      return Promise.resolve();
    },
  };
}

/**
 * A repository of type `R` from the methods a test gives it: each is checked against the real one's
 * signature; calling a method the fake does not have fails loudly instead of returning undefined.
 */
export function fakeRepository<R extends object>(name: string, methods: Partial<R>): R {
  return new Proxy(methods, {
    get(target, key) {
      if (key in target) return target[key as keyof typeof target];
      if (key === 'then') return undefined;
      throw new Error(`${name}.${String(key)} is not faked: add it to the in-memory repository`);
    },
  }) as R;
}
