import { BOOK_FIELD_LABELS } from '@guji/shared';

/** One changed field of an audited action: its name, and its value before and after (absent: none). */
export interface AuditChange {
  label: string;
  before?: string;
  after?: string;
}

/** Field names of the other audited records, as the console calls them. */
const OTHER_LABELS: Record<string, string> = {
  reason: '理由',
  siteName: '站点名称',
  copyright: '页脚版权信息',
  filingNumber: '备案号',
  fundingNote: '资助说明',
  introduction: '馆藏简介',
  requireRealName: '注册实名',
  timeZone: '本馆时区',
  downloadMaxSide: '下载图像最长边',
  downloadVolumePdf: '整册下载 PDF',
  printPostEnabled: '打印可邮寄',
  ownQuotaPages: '自有古籍页数上限',
  ownQuotaMb: '自有古籍存储上限（MB）',
  name: '名称',
  sort: '排序',
  roles: '角色',
  disabled: '停用',
  category: '读者类别',
  days: '天数',
  priceFen: '每页价格（分）',
  paperSize: '纸张',
};
const LABELS: Record<string, string> = { ...OTHER_LABELS, ...BOOK_FIELD_LABELS };

/** Bookkeeping a record carries that is not something a person changed. */
const IGNORED = new Set(['updatedAt', 'createdAt', 'volumeCount', 'pageCount']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as the log shows it. */
export function auditValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '（空）';
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '（空）' : value.map(auditValue).join('、');
  return JSON.stringify(value);
}

/**
 * What an audited action changed, field by field (`书名：旧 → 新`), not the records' JSON: a record
 * created lists what it was given, one deleted what it had, one edited only the fields that differ.
 * A value that is not a record (a list of roles, of address ranges) is one change.
 */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const has = (value: unknown) => value !== null && value !== undefined;
  if ((isRecord(before) || !has(before)) && (isRecord(after) || !has(after)) && (has(before) || has(after))) {
    const old = isRecord(before) ? before : null;
    const now = isRecord(after) ? after : null;
    const keys = [...new Set([...Object.keys(now ?? {}), ...Object.keys(old ?? {})])].filter(
      (key) => !IGNORED.has(key),
    );
    const changes: AuditChange[] = [];
    for (const key of keys) {
      const label = LABELS[key] ?? key;
      if (old && now) {
        if (JSON.stringify(old[key] ?? null) === JSON.stringify(now[key] ?? null)) continue;
        changes.push({ label, before: auditValue(old[key]), after: auditValue(now[key]) });
      } else if (now) {
        if (now[key] === null || now[key] === '') continue;
        changes.push({ label, after: auditValue(now[key]) });
      } else if (old) {
        if (old[key] === null || old[key] === '') continue;
        changes.push({ label, before: auditValue(old[key]) });
      }
    }
    return changes;
  }
  if (JSON.stringify(before ?? null) === JSON.stringify(after ?? null)) return [];
  return [
    {
      label: '值',
      ...(has(before) ? { before: auditValue(before) } : {}),
      ...(has(after) ? { after: auditValue(after) } : {}),
    },
  ];
}
