import type { Selectable } from 'kysely';
import type { Db, DbOrTx } from '../../db/database.ts';
import type { NotesTable } from '../../db/schema.ts';

/** A reader's note with the page it is on and that page's volume. */
export type NoteWithPage = Selectable<NotesTable> & { seq: number; volume_id: number; volume_name: string };

/** Readers' notes on pages. */
export class NoteRepository {
  constructor(private readonly db: Db) {}

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
