import { describe, expect, it } from 'vitest';
import type { Auditor } from './auditor.ts';

describe('an audit record', () => {
  it("is written in the change's transaction: a call without one does not compile (npm run typecheck)", async () => {
    const written: unknown[][] = [];
    const auditor: Auditor = {
      record: (...args) => {
        written.push(args);
        return Promise.resolve();
      },
    };
    // @ts-expect-error the transaction is required (issue 33 part 2): this line must not type-check.
    await auditor.record(1, 'book.update', 'book:1', null, null);
    expect(written).toHaveLength(1);
  });
});
