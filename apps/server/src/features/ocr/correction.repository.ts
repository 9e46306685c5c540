import type { CorrectionStatus } from '@guji/shared';
import type { Db, DbOrTx } from '../../db/database.ts';

export interface NewCorrection {
  pageId: number;
  userId: number;
  line: number;
  start: number;
  original: string;
  proposed: string | null;
  note: string | null;
  boxJson: string | null;
  createdAt: string;
}

/** Readers' corrections of page text (text_corrections) and the reviewers' queue of them. */
export class CorrectionRepository {
  constructor(private readonly db: Db) {}

  private select(tx: DbOrTx) {
    return tx
      .selectFrom('text_corrections as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .leftJoin('users as r', 'r.id', 'c.reviewer_id')
      .innerJoin('pages as p', 'p.id', 'c.page_id')
      .innerJoin('books as b', 'b.id', 'p.book_id')
      .innerJoin('volumes as v', 'v.id', 'p.volume_id')
      .select([
        'c.id',
        'c.page_id',
        'c.user_id',
        'c.line',
        'c.start',
        'c.original',
        'c.proposed',
        'c.note',
        'c.box_json',
        'c.status',
        'c.refuse_reason',
        'c.version',
        'c.created_at',
        'c.decided_at',
        'u.login_name as proposer',
        'r.login_name as reviewer',
        'b.id as book_id',
        'b.title',
        'v.id as volume_id',
        'v.name as volume_name',
        'p.seq as page_seq',
        'p.name as page_name',
      ]);
  }

  async create(entry: NewCorrection): Promise<number> {
    const row = await this.db
      .insertInto('text_corrections')
      .values({
        page_id: entry.pageId,
        user_id: entry.userId,
        line: entry.line,
        start: entry.start,
        original: entry.original,
        proposed: entry.proposed,
        note: entry.note,
        box_json: entry.boxJson,
        status: 'pending',
        created_at: entry.createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async find(id: number, tx: DbOrTx = this.db) {
    return this.select(tx).where('c.id', '=', id).executeTakeFirst();
  }

  /** How many corrections a reader proposed since a moment (the hourly limit). */
  async countSince(userId: number, since: string, tx: DbOrTx = this.db): Promise<number> {
    const { n } = await tx
      .selectFrom('text_corrections')
      .where('user_id', '=', userId)
      .where('created_at', '>=', since)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** A reader's own corrections of one page, newest first. */
  async ofReader(pageId: number, userId: number, tx: DbOrTx = this.db): Promise<CorrectionRow[]> {
    return this.select(tx)
      .where('c.page_id', '=', pageId)
      .where('c.user_id', '=', userId)
      .orderBy('c.id', 'desc')
      .execute();
  }

  /** The queue: corrections in a status (optionally of one page), pending ones oldest first. */
  async page(
    where: { status: CorrectionStatus; pageId?: number },
    offset: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<{ rows: CorrectionRow[]; total: number }> {
    let count = tx.selectFrom('text_corrections').where('status', '=', where.status);
    let rows = this.select(tx).where('c.status', '=', where.status);
    if (where.pageId !== undefined) {
      count = count.where('page_id', '=', where.pageId);
      rows = rows.where('c.page_id', '=', where.pageId);
    }
    const { n } = await count.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const list = await rows
      .orderBy('c.id', where.status === 'pending' ? 'asc' : 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { rows: list, total: Number(n) };
  }

  /** Records the decision on a pending correction; false when it was no longer pending. */
  async decide(
    id: number,
    decision: {
      status: Exclude<CorrectionStatus, 'pending'>;
      reviewerId: number;
      decidedAt: string;
      refuseReason?: string;
      version?: number | null;
    },
    tx: DbOrTx,
  ): Promise<boolean> {
    const result = await tx
      .updateTable('text_corrections')
      .set({
        status: decision.status,
        reviewer_id: decision.reviewerId,
        decided_at: decision.decidedAt,
        refuse_reason: decision.refuseReason ?? null,
        version: decision.version ?? null,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

/** A correction with its author's and reviewer's login names and where its page is (as selected above). */
export type CorrectionRow = NonNullable<Awaited<ReturnType<CorrectionRepository['find']>>>;
