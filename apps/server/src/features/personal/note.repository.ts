import type { Selectable } from 'kysely';
import type { Db, DbOrTx } from '../../db/database.ts';
import type { NotesTable } from '../../db/schema.ts';

export type NoteRow = Selectable<NotesTable>;

/** A reader's note with the page it is on and that page's volume. */
export type NoteWithPage = Selectable<NotesTable> & { seq: number; volume_id: number; volume_name: string };

/** Readers' notes on pages. */
export class NoteRepository {
  constructor(private readonly db: Db) {}

  async add(entry: {
    userId: number;
    bookId: number;
    pageId: number;
    rect: { x: number; y: number; w: number; h: number };
    text: string;
    now: string;
  }): Promise<NoteRow> {
    return this.db
      .insertInto('notes')
      .values({
        user_id: entry.userId,
        book_id: entry.bookId,
        page_id: entry.pageId,
        ...entry.rect,
        text: entry.text,
        created_at: entry.now,
        updated_at: entry.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A user's own notes on a page, in the order made. */
  async onPage(userId: number, pageId: number, tx: DbOrTx = this.db): Promise<NoteRow[]> {
    return tx
      .selectFrom('notes')
      .selectAll()
      .where('page_id', '=', pageId)
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  /** Changes the text of one of the user's own notes; undefined when there is none. */
  async updateText(userId: number, id: number, text: string, now: string): Promise<NoteRow | undefined> {
    return this.db
      .updateTable('notes')
      .set({ text, updated_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes one of the user's own notes; false when there is none. */
  async remove(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('notes')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async countOwn(userId: number, tx: DbOrTx = this.db): Promise<number> {
    const { n } = await tx
      .selectFrom('notes')
      .where('user_id', '=', userId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** One of a user's own notes with its page and volume; undefined for another user's note. */
  async findOwnWithPage(userId: number, id: number, tx: DbOrTx = this.db): Promise<NoteWithPage | undefined> {
    return this.ownWithPage(userId, tx).where('notes.id', '=', id).executeTakeFirst();
  }

  /** A page of a user's own notes with their pages and volumes, newest first. */
  async listOwnWithPage(
    userId: number,
    limit: number,
    offset: number,
    tx: DbOrTx = this.db,
  ): Promise<NoteWithPage[]> {
    return this.ownWithPage(userId, tx).orderBy('notes.id', 'desc').limit(limit).offset(offset).execute();
  }

  private ownWithPage(userId: number, tx: DbOrTx) {
    return tx
      .selectFrom('notes')
      .where('notes.user_id', '=', userId)
      .innerJoin('pages', 'pages.id', 'notes.page_id')
      .innerJoin('volumes', 'volumes.id', 'pages.volume_id')
      .selectAll('notes')
      .select(['pages.seq', 'pages.volume_id', 'volumes.name as volume_name']);
  }
}
