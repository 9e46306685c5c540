import { z } from 'zod';
import { MSG } from '../messages.ts';
import { ROLES } from '../permissions.ts';
import { isSafeName } from '../validation.ts';
import { SmsOutboxEntry } from './auth.ts';
import { BookNotes } from './catalog.ts';
import { Terminal } from './site.ts';

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
  'book.marc-import': 'MARC 导入',
  'class.rename': '修改分类名称',
  'class.delete': '删除分类',
  'book.create': '新建古籍',
  'book.delete': '删除古籍',
  'volume.create': '添加卷册',
  'volume.update': '修改卷册',
  'volume.delete': '删除卷册',
  'pages.upload': '上传页面',
  'pages.order': '调整页序',
  'page.rename': '重命名页面',
  'page.delete': '删除页面',
  'directory.save': '修改目录',
  'user.category': '修改读者类别',
  'readingroom.addresses': '修改阅览室地址段',
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
export type JobQuery = z.input<typeof JobQuery>;

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
  'images.retire': '删除被替换的金字塔',
  'ocr.page': 'OCR 识别',
  'maintenance.purge': '清理过期记录',
};

/** What a job works on, as people read it (its data is an object of ids). */
export function jobTarget(data: unknown): string {
  if (data === null || typeof data !== 'object') return '';
  const parts: string[] = [];
  const record = data as Record<string, unknown>;
  if (typeof record.pageId === 'number') parts.push(`页面 #${record.pageId}`);
  if (typeof record.bookId === 'number') parts.push(`古籍 #${record.bookId}`);
  if (typeof record.volumeId === 'number') parts.push(`卷册 #${record.volumeId}`);
  if (typeof record.key === 'string') parts.push(`文件 ${record.key}`);
  if (parts.length > 0) return parts.join('，');
  return Object.keys(record).length > 0 ? JSON.stringify(data) : '';
}

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
  readerFlag: z.string(),
  flagExpiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof AdminUser>;

/**
 * Reader categories (the spec's user flag). A research reader reads every published book from
 * anywhere, as in the reading room (a standing privilege for all books), until the category ends.
 */
export const READER_CATEGORY_LABELS: Record<string, string> = {
  '1': '普通读者',
  '2': '研究读者',
};

/** A reader category as people read it, with the last day of a research reader's (local calendar). */
export function readerCategoryText(flag: string, expiresAt: string | null, now = Date.now()): string {
  const label = READER_CATEGORY_LABELS[flag] ?? flag;
  if (flag !== '2') return label;
  if (!expiresAt) return `${label}（长期）`;
  // The category ends at the local midnight after its last day.
  const lastDay = new Date(Date.parse(expiresAt) - 1000).toLocaleDateString('zh-CN');
  return Date.parse(expiresAt) <= now ? `${label}（已于 ${lastDay} 到期）` : `${label}（至 ${lastDay}）`;
}

export const UserQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  q: z.string().trim().max(50).optional(),
  flag: z.enum(['1', '2']).optional(),
});
export type UserQuery = z.input<typeof UserQuery>;

/** A user's roles (at least one; an administrator keeps their own administrator role). */
export const SetRolesRequest = z.object({
  roles: z.array(z.enum(ROLES)).min(1, '至少保留一个角色').max(ROLES.length, '角色重复或过多'),
});
export type SetRolesRequest = z.input<typeof SetRolesRequest>;

/** Disable (its sessions end at once) or enable a user. */
export const SetDisabledRequest = z.object({ disabled: z.boolean() });
export type SetDisabledRequest = z.input<typeof SetDisabledRequest>;

/** A new temporary password, shown once. */
export const TemporaryPassword = z.object({ password: z.string() });
export type TemporaryPassword = z.infer<typeof TemporaryPassword>;

export const SetReaderCategoryRequest = z.object({
  flag: z.enum(['1', '2'], { message: '读者类别无效' }),
  /** The last day (inclusive, in the library's time zone) of a research reader's category; null: none. */
  lastDay: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
    .nullable()
    .default(null),
});
export type SetReaderCategoryRequest = z.input<typeof SetReaderCategoryRequest>;

const className = z.string().trim().min(1, '请输入分类名称').max(50).refine(isSafeName, MSG.nameUnsafeChars);
export const CreateClassRequest = z.object({
  parentId: z.number().int().nullable(),
  code: z
    .string()
    .trim()
    .regex(/^[A-Z0-9_]+(\.[A-Z0-9_]+)*$/, '分类代码只能用大写字母、数字和下划线，层级之间用“.”分隔'),
  name: className,
});
export const RenameClassRequest = z.object({ name: className });

/** The dashboard's ranges in days. */
export const DASHBOARD_RANGES = [7, 30, 90] as const;

export const DashboardQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((n) => (DASHBOARD_RANGES as readonly number[]).includes(n), '统计范围只能是 7、30 或 90 天')
    .default(30),
});

const DashboardCounts = z.object({
  /** Signed-in readers who opened a book or read a page. */
  readers: z.number().int(),
  /** Pages shown in the reader for a second or more. */
  pageViews: z.number().int(),
  /** Volumes opened in the reader. */
  bookOpens: z.number().int(),
  /** Catalogue, advanced and full-text searches (first result pages). */
  searches: z.number().int(),
  registrations: z.number().int(),
  /** Print orders placed. */
  orders: z.number().int(),
  /** Print orders paid, and what they brought in (fen). */
  paidOrders: z.number().int(),
  revenueFen: z.number().int(),
  /** Pages recognised by the OCR engines. */
  ocrPages: z.number().int(),
});
export type DashboardCounts = z.infer<typeof DashboardCounts>;

export const Dashboard = z.object({
  timeZone: z.string(),
  days: z.array(DashboardCounts.extend({ day: z.string() })),
  totals: DashboardCounts,
  catalogue: z.object({
    books: z.number().int(),
    visibleBooks: z.number().int(),
    pages: z.number().int(),
    users: z.number().int(),
  }),
});
export type Dashboard = z.infer<typeof Dashboard>;

export const ADMIN_BOOK_PAGE_SIZE = 10;

/** Which of the catalogue's books the console lists. */
export const ADMIN_BOOK_STATES = {
  visible: '公开显示',
  hidden: '已隐藏',
  open: '可在线阅览',
  closed: '仅阅览室',
} as const;

export const AdminBookQuery = z.object({
  text: z.string().trim().max(100).optional(),
  state: z.enum(['visible', 'hidden', 'open', 'closed']).optional(),
  pageNum: z.coerce.number().int().min(1).default(1),
});

/** A book of the catalogue as the console lists it (the library's books and published own books). */
export const AdminBook = z.object({
  catalogId: z.number().int(),
  title: z.string(),
  author: z.string().nullable(),
  publishDynasty: z.string().nullable(),
  coverageDynasty: z.string().nullable(),
  editionType: z.string().nullable(),
  callNumber: z.string().nullable(),
  classCode: z.string().nullable(),
  actualVolume: z.number().int().nullable(),
  bookNumber: z.number().int().nullable(),
  /** 附注, line breaks kept. */
  notes: z.string().nullable(),
  isVisible: z.boolean(),
  isOpen: z.boolean(),
  volumeCount: z.number().int(),
  pageCount: z.number().int(),
  /** Who uploaded it, for a published own book; null for the library's books. */
  owner: z.string().nullable(),
  updatedAt: z.string(),
});
export type AdminBook = z.infer<typeof AdminBook>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(isSafeName, MSG.nameUnsafeChars)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null));

/** A new book of the library, catalogued by staff (its volumes and pages are added afterwards). */
export const CreateBookRequest = z.object({
  title: z
    .string()
    .trim()
    .min(1, '请输入书名')
    .max(200, '书名不能超过 200 个字')
    .refine(isSafeName, MSG.nameUnsafeChars),
  author: optionalText(200),
  publishDynasty: optionalText(100),
  coverageDynasty: optionalText(200),
  editionType: optionalText(100),
  callNumber: optionalText(100),
  classCode: optionalText(60),
  actualVolume: z.number().int().min(0).max(100000).nullable().optional(),
  bookNumber: z.number().int().min(0).max(100000).nullable().optional(),
  notes: BookNotes.transform((v) => (v ? v : null)),
  isVisible: z.boolean().default(false),
  isOpen: z.boolean().default(false),
});
export type CreateBookRequest = z.input<typeof CreateBookRequest>;

/** The development SMS provider's outbox: by phone, the latest `limit` messages. */
export const SmsOutboxQuery = z.object({
  phone: z.string().max(20).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const SmsOutboxList = z.object({ records: z.array(SmsOutboxEntry) });
export type SmsOutboxList = z.infer<typeof SmsOutboxList>;

/** The reading room's address ranges (IPv4 or IPv6, address or address/prefix). */
export const ReadingRoomAddressesRequest = z.object({
  cidrs: z.array(z.string().trim().max(60)).max(200, '地址段最多 200 条'),
});
export type ReadingRoomAddressesRequest = z.input<typeof ReadingRoomAddressesRequest>;

/** The address ranges (READING_ROOM_CIDRS until saved), and the asking request's address. */
export const ReadingRoomAddressList = ReadingRoomAddressesRequest.extend({
  fromEnvironment: z.boolean(),
  clientIp: z.string(),
  inReadingRoom: z.boolean(),
});
export type ReadingRoomAddressList = z.infer<typeof ReadingRoomAddressList>;

export const TerminalList = z.object({ records: z.array(Terminal) });
export type TerminalList = z.infer<typeof TerminalList>;

/** A terminal's activation link: its token. */
export const TerminalActivation = z.object({ token: z.string().max(100) });

/** The books a package import made (or replaced). */
export const ImportedBooks = z.object({
  books: z.array(z.object({ title: z.string(), bookId: z.number().int(), pages: z.number().int() })),
});
export type ImportedBooks = z.infer<typeof ImportedBooks>;
