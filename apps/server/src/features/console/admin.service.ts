import {
  AUDIT_PAGE_SIZE,
  JOB_PAGE_SIZE,
  USER_PAGE_SIZE,
  type AdminUser,
  type AuditEntry,
  type JobEntry,
  type JobStats,
} from '@guji/shared';
import type { DbOrTx } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import type { UserRepository } from '../accounts/user.repository.ts';
import type { JobRepository } from '../../jobs/job.repository.ts';
import type { AuditRepository } from './audit.repository.ts';
import type { Auditor } from '../../audit/auditor.ts';
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
export class AdminService implements Auditor {
  constructor(
    private readonly audits: AuditRepository,
    private readonly jobRepo: JobRepository,
    private readonly userRepo: UserRepository,
    private readonly clock: Clock,
    private readonly transact: Transact,
  ) {}

  /**
   * Writes one audit record in the transaction of the change it records, so that the record stands or
   * falls with the change: the transaction is required, so a forgotten one does not compile.
   */
  async record(
    actorId: number | null,
    action: string,
    target: string,
    before: unknown,
    after: unknown,
    tx: DbOrTx,
  ): Promise<void> {
    await this.audits.record(
      {
        actorId,
        action,
        target,
        before: before === undefined ? null : JSON.stringify(before),
        after: after === undefined ? null : JSON.stringify(after),
        createdAt: nowIso(this.clock.now()),
      },
      tx,
    );
  }

  async audit(query: {
    pageNum: number;
    action?: string | undefined;
    actor?: string | undefined;
  }): Promise<Paged<AuditEntry>> {
    const { rows, total } = await this.audits.page({
      action: query.action,
      actor: query.actor,
      limit: AUDIT_PAGE_SIZE,
      offset: (query.pageNum - 1) * AUDIT_PAGE_SIZE,
    });
    return pagedOf(
      query.pageNum,
      AUDIT_PAGE_SIZE,
      total,
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
    const { rows, total } = await this.jobRepo.page({
      status: query.status,
      limit: JOB_PAGE_SIZE,
      offset: (query.pageNum - 1) * JOB_PAGE_SIZE,
    });
    return pagedOf(
      query.pageNum,
      JOB_PAGE_SIZE,
      total,
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
    const counts = await this.jobRepo.countByStatus();
    const since = nowIso(new Date(this.clock.now().getTime() - 3600_000));
    return {
      counts: Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)),
      lastHour: await this.jobRepo.succeededSince(since),
    };
  }

  // Users

  async users(query: {
    pageNum: number;
    q?: string | undefined;
    flag?: string | undefined;
  }): Promise<Paged<AdminUser>> {
    const { rows, total } = await this.userRepo.page({
      text: query.q,
      flag: query.flag,
      limit: USER_PAGE_SIZE,
      offset: (query.pageNum - 1) * USER_PAGE_SIZE,
    });
    return pagedOf(
      query.pageNum,
      USER_PAGE_SIZE,
      total,
      rows.map((r) => ({
        id: r.id,
        loginName: r.login_name,
        nickName: r.nick_name,
        realName: r.real_name,
        phone: r.phone,
        email: r.email,
        roles: r.roles,
        disabled: r.disabled === 1,
        readerFlag: r.reader_flag,
        flagExpiresAt: r.flag_expires_at,
        createdAt: r.created_at,
      })),
    );
  }

  /** A failed job runs again from its first attempt; one transaction with its audit record. */
  async retryJob(actorId: number, id: number): Promise<void> {
    await this.transact(async (tx) => {
      if (!(await this.jobRepo.requeueFailed(id, nowIso(this.clock.now()), tx)))
        await this.explain(id, '只有失败的任务可以重试', tx);
      await this.record(actorId, 'job.retry', `job:${id}`, { status: 'failed' }, { status: 'queued' }, tx);
    });
  }

  /** A queued job is cancelled (kept as failed, with the reason); one transaction with its audit record. */
  async cancelJob(actorId: number, id: number): Promise<void> {
    await this.transact(async (tx) => {
      if (!(await this.jobRepo.cancelQueued(id, '已由管理员取消', nowIso(this.clock.now()), tx)))
        await this.explain(id, '只有排队中的任务可以取消', tx);
      await this.record(actorId, 'job.cancel', `job:${id}`, { status: 'queued' }, { status: 'failed' }, tx);
    });
  }

  private async explain(id: number, message: string, tx: DbOrTx): Promise<never> {
    if (!(await this.jobRepo.findById(id, tx))) throw notFound('任务不存在', 'NOT_FOUND');
    throw conflict('JOB_STATE', message);
  }
}
