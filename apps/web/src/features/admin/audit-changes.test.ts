import { describe, expect, it } from 'vitest';
import { auditChanges, auditValue } from './audit-changes.ts';

describe('the audit log’s changes', () => {
  it('an edit lists only the fields that differ, by their console names', () => {
    const before = { catalogId: 3, title: '論語', notes: null, isOpen: false, updatedAt: '2026-11-01' };
    const after = {
      catalogId: 3,
      title: '論語集注',
      notes: '有朱筆圈點。',
      isOpen: true,
      updatedAt: '2026-11-28',
    };
    expect(auditChanges(before, after)).toEqual([
      { label: '书名', before: '論語', after: '論語集注' },
      { label: '附注', before: '（空）', after: '有朱筆圈點。' },
      { label: '在线阅览', before: '否', after: '是' },
    ]);
  });

  it('a new record lists what it was given; a deleted one what it had', () => {
    expect(auditChanges(null, { title: '孝經', author: null, classCode: 'JING' })).toEqual([
      { label: '书名', after: '孝經' },
      { label: '分类', after: 'JING' },
    ]);
    expect(auditChanges({ title: '孝經', volumeCount: 2 }, null)).toEqual([
      { label: '书名', before: '孝經' },
    ]);
  });

  it('a list is one change; the same value is none; an unknown field keeps its name', () => {
    expect(auditChanges(['reader'], ['reader', 'catalogAdmin'])).toEqual([
      { label: '值', before: 'reader', after: 'reader、catalogAdmin' },
    ]);
    expect(auditChanges(['a'], ['a'])).toEqual([]);
    expect(auditChanges(null, null)).toEqual([]);
    expect(auditChanges({ footerNote: 'x' }, { footerNote: 'y' })).toEqual([
      { label: 'footerNote', before: 'x', after: 'y' },
    ]);
    expect(auditValue({ a: 1 })).toBe('{"a":1}');
  });
});
