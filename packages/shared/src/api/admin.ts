import { z } from 'zod';

export const AUDIT_PAGE_SIZE = 20;
export const JOB_PAGE_SIZE = 20;

/** What the audit log names each administrative action. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'site.update': '修改站点设置',
  'duration.update': '修改借阅时长',
  'terminal.create': '发放阅览室终端',
  'terminal.revoke': '吊销阅览室终端',
  'job.retry': '重试任务',
  'job.cancel': '取消任务',
  'print.prices': '修改打印价格',
  'ownbook.approve': '通过古籍发布',
  'ownbook.refuse': '拒绝古籍发布',
  'ownbook.withdraw': '撤回古籍发布',
  'comment.hide': '隐藏评论',
  'comment.show': '取消隐藏评论',
  'reservation.approve': '通过预约',
  'reservation.refuse': '拒绝预约',
  'user.roles': '修改用户角色',
  'user.disable': '停用用户',
  'user.enable': '启用用户',
  'user.reset-password': '重置用户密码',
  'class.create': '添加分类',
  'book.update': '修改古籍',
  'book.import': '批量导入',
  'class.rename': '修改分类名称',
  'class.delete': '删除分类',
};

export const AuditEntry = z.object({
  id: z.number().int(),
  actor: z.string().nullable(),
  action: z.string(),
  target: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  action: z.string().max(40).optional(),
  actor: z.string().max(40).optional(),
});

export const JobEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  progress: z.number(),
  progressMessage: z.string().nullable(),
  lastError: z.string().nullable(),
  data: z.unknown(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type JobEntry = z.infer<typeof JobEntry>;

export const JobQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']).optional(),
});

export const JobStats = z.object({
  counts: z.record(z.string(), z.number().int()),
  /** Jobs finished in the last hour, by name (OCR and tiling throughput). */
  lastHour: z.record(z.string(), z.number().int()),
});
export type JobStats = z.infer<typeof JobStats>;

export const JOB_STATUS_LABELS: Record<string, string> = {
  queued: '排队中',
  running: '运行中',
  succeeded: '已完成',
  failed: '失败',
};

export const JOB_NAME_LABELS: Record<string, string> = {
  'images.pyramid': '切图（金字塔）',
  'ocr.page': 'OCR 识别',
};

export const USER_PAGE_SIZE = 20;

export const AdminUser = z.object({
  id: z.number().int(),
  loginName: z.string(),
  nickName: z.string().nullable(),
  realName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  roles: z.array(z.string()),
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const UserQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  q: z.string().trim().max(50).optional(),
});

export const CreateClassRequest = z.object({
  parentId: z.number().int().nullable(),
  code: z
    .string()
    .trim()
    .regex(/^[A-Z0-9_]+(\.[A-Z0-9_]+)*$/, '分类代码只能用大写字母、数字和下划线，层级之间用“.”分隔'),
  name: z.string().trim().min(1, '请输入分类名称').max(50),
});
export const RenameClassRequest = z.object({ name: z.string().trim().min(1, '请输入分类名称').max(50) });
