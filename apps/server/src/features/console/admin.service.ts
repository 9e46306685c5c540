import {
  AUDIT_PAGE_SIZE,
  JOB_PAGE_SIZE,
  USER_PAGE_SIZE,
  type AdminUser,
  type AuditEntry,
  type JobEntry,
  type JobStats,
} from '@guji/shared';
import type { Db } from '../../db/database.ts';
import { likeText } from '../catalog/catalog.repository.ts';
import { nowIso } from '../../db/database.ts';
import { conflict, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { pagedOf, type Paged } from '../../lib/paged.ts';

const parse = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/**
 * The administration console's records: the audit log of every administrative change (who, when,
 * what, before and after), and the job monitor (queued, running, failed with reason; retry, cancel;
 * throughput).
 */
export class AdminService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async record(
    actorId: number | null,
    action: string,
    target: string,
    before: unknown,
    after: unknown,
  ): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        actor_id: actorId,
        action,
        target,
        before: before === undefined ? null : JSON.stringify(before),
        after: after === undefined ? null : JSON.stringify(after),
        created_at: nowIso(this.clock.now()),
      })
      .execute();
  }

  async audit(query: {
    pageNum: number;
    action?: string | undefined;
    actor?: string | undefined;
  }): Promise<Paged<AuditEntry>> {
    let base = this.db.selectFrom('audit_log').leftJoin('users', 'users.id', 'audit_log.actor_id');
    if (query.action) base = base.where('audit_log.action', '=', query.action);
    if (query.actor) base = base.where('users.login_name', '=', query.actor);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll('audit_log')
      .select('users.login_name')
      .orderBy('audit_log.id', 'desc')
      .limit(AUDIT_PAGE_SIZE)
      .offset((query.pageNum - 1) * AUDIT_PAGE_SIZE)
      .execute();
    return pagedOf(
      query.pageNum,
      AUDIT_PAGE_SIZE,
      n,
      rows.map((r) => ({
        id: r.id,
        actor: r.login_name,
        action: r.action,
        target: r.target,
        before: parse(r.before),
        after: parse(r.after),
        createdAt: r.created_at,
      })),
    );
  }

  async jobs(query: { pageNum: number; status?: string | undefined }): Promise<Paged<JobEntry>> {
    let base = this.db.selectFrom('jobs');
    if (query.status) base = base.where('status', '=', query.status);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(JOB_PAGE_SIZE)
      .offset((query.pageNum - 1) * JOB_PAGE_SIZE)
      .execute();
    return pagedOf(
      query.pageNum,
      JOB_PAGE_SIZE,
      n,
      rows.map((r) => ({
        id: r.id,
        name: r.name,
        status: r.status,
        attempts: r.attempts,
        maxAttempts: r.max_attempts,
        progress: r.progress,
        progressMessage: r.progress_message,
        lastError: r.last_error,
        data: parse(r.data),
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        finishedAt: r.finished_at,
      })),
    );
  }

  async jobStats(): Promise<JobStats> {
    const counts = await this.db
      .selectFrom('jobs')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    const since = nowIso(new Date(this.clock.now().getTime() - 3600_000));
    const recent = await this.db
      .selectFrom('jobs')
      .select((eb) => ['name', eb.fn.countAll<number>().as('n')])
      .where('status', '=', 'succeeded')
      .where('finished_at', '>=', since)
      .groupBy('name')
      .execute();
    return {
      counts: Object.fromEntries(counts.map((c) => [c.status, Number(c.n)])),
      lastHour: Object.fromEntries(recent.map((c) => [c.name, Number(c.n)])),
    };
  }

  // Users

  async users(query: {
    pageNum: number;
    q?: string | undefined;
    flag?: string | undefined;
  }): Promise<Paged<AdminUser>> {
    let base = this.db.selectFrom('users');
    if (query.q) {
      const q = query.q;
      base = base.where((eb) =>
        eb.or(
          ['login_name', 'nick_name', 'real_name', 'phone', 'email'].map((column) => likeText(column, q)),
        ),
      );
    }
    if (query.flag) base = base.where('reader_flag', '=', query.flag);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .select([
        'id',
        'login_name',
        'nick_name',
        'real_name',
        'phone',
        'email',
        'disabled',
        'reader_flag',
        'flag_expires_at',
        'created_at',
      ])
      .orderBy('id', 'desc')
      .limit(USER_PAGE_SIZE)
      .offset((query.pageNum - 1) * USER_PAGE_SIZE)
      .execute();
    const roles =
      rows.length === 0
        ? []
        : await this.db
            .selectFrom('user_roles')
            .selectAll()
            .where(
              'user_id',
              'in',
              rows.map((r) => r.id),
            )
            .execute();
    return pagedOf(
      query.pageNum,
      USER_PAGE_SIZE,
      n,
      rows.map((r) => ({
        id: r.id,
        loginName: r.login_name,
        nickName: r.nick_name,
        realName: r.real_name,
        phone: r.phone,
        email: r.email,
        roles: roles.filter((x) => x.user_id === r.id).map((x) => x.role),
        disabled: r.disabled === 1,
        readerFlag: r.reader_flag,
        flagExpiresAt: r.flag_expires_at,
        createdAt: r.created_at,
      })),
    );
  }

  /** A failed job runs again from its first attempt. */
  async retryJob(id: number): Promise<void> {
    const now = nowIso(this.clock.now());
    const result = await this.db
      .updateTable('jobs')
      .set({
        status: 'queued',
        attempts: 0,
        run_at: now,
        locked_by: null,
        locked_at: null,
        updated_at: now,
        finished_at: null,
      })
      .where('id', '=', id)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) await this.explain(id, '只有失败的任务可以重试');
  }

  /** A queued job is cancelled (kept as failed, with the reason). */
  async cancelJob(id: number): Promise<void> {
    const now = nowIso(this.clock.now());
    const result = await this.db
      .updateTable('jobs')
      .set({ status: 'failed', last_error: '已由管理员取消', updated_at: now, finished_at: now })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) await this.explain(id, '只有排队中的任务可以取消');
  }

  private async explain(id: number, message: string): Promise<never> {
    const exists = await this.db.selectFrom('jobs').select('id').where('id', '=', id).executeTakeFirst();
    if (!exists) throw notFound('任务不存在', 'NOT_FOUND');
    throw conflict('JOB_STATE', message);
  }
}
