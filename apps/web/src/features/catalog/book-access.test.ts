import { describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { openOutcome, orNone } from './book-access.ts';
import { toBookFields, toUpdateRequest } from './book-form.ts';

const url = '/Book?catalogId=1&fascicleId=2&directoryId=3&imageId=4';

describe('opening a page from the directory tree (DESIGN.md §7)', () => {
  it('reads when allowed', () => {
    expect(openOutcome({ canRead: true, reason: 'ok', message: '' }, url)).toEqual({ kind: 'read', to: url });
  });

  it('asks a visitor to log in, returning to the page after 1.5 s', () => {
    expect(openOutcome({ canRead: false, reason: 'login', message: MSG.loginRequiredNotice }, url)).toEqual({
      kind: 'login',
      notice: MSG.loginRequiredNotice,
      to: `/Login?redirect=${encodeURIComponent(url)}`,
      delayMs: 1500,
    });
  });

  it('refuses with the no-data and reading-room notices', () => {
    expect(openOutcome({ canRead: false, reason: 'noData', message: '' }, url)).toEqual({
      kind: 'refuse',
      notice: MSG.noData,
    });
    expect(openOutcome({ canRead: false, reason: 'readingRoom', message: '' }, url)).toEqual({
      kind: 'refuse',
      notice: MSG.readingRoomOnly,
    });
  });

  it('opens on the record as stored, an unclassified book with the class chooser empty', () => {
    const stored = {
      catalogId: 9,
      title: '論語',
      author: '孔子弟子',
      publishDynasty: '宋',
      editionType: '刻本',
      coverageDynasty: '宋刻本',
      callNumber: 'A1',
      classCode: null,
      notes: '有朱筆圈點。',
      actualVolume: 20,
      bookNumber: 4,
      isVisible: true,
      isOpen: false,
      volumeCount: 2,
    };
    const fields = toBookFields(stored);
    expect(fields.classCode).toBeUndefined();
    expect(Object.keys(fields)).not.toContain('catalogId');
    expect(toUpdateRequest({ ...fields, classCode: 'JING' })).toMatchObject({
      classCode: 'JING',
      notes: '有朱筆圈點。',
    });
  });
});

describe('empty fields', () => {
  it('show 暂无', () => {
    expect(orNone(null)).toBe('暂无');
    expect(orNone(undefined)).toBe('暂无');
    expect(orNone('  ')).toBe('暂无');
    expect(orNone('清')).toBe('清');
    expect(orNone(0)).toBe('0');
  });
});

describe('the edit form', () => {
  it('sends trimmed text and clears emptied fields', () => {
    expect(
      toUpdateRequest({
        title: ' 论语 ',
        author: '',
        publishDynasty: ' 宋 ',
        editionType: ' 刻本',
        coverageDynasty: null,
        callNumber: '  ',
        classCode: undefined,
        notes: ' 有朱筆圈點。\n卷末有跋。 ',
        actualVolume: null,
        bookNumber: 4,
        isVisible: true,
        isOpen: false,
      }),
    ).toEqual({
      title: '论语',
      author: null,
      publishDynasty: '宋',
      editionType: '刻本',
      coverageDynasty: null,
      callNumber: null,
      classCode: null,
      notes: '有朱筆圈點。\n卷末有跋。',
      actualVolume: null,
      bookNumber: 4,
      isVisible: true,
      isOpen: false,
    });
  });

  it('opens on the record as stored, an unclassified book with the class chooser empty', () => {
    const stored = {
      catalogId: 9,
      title: '論語',
      author: '孔子弟子',
      publishDynasty: '宋',
      editionType: '刻本',
      coverageDynasty: '宋刻本',
      callNumber: 'A1',
      classCode: null,
      notes: '有朱筆圈點。',
      actualVolume: 20,
      bookNumber: 4,
      isVisible: true,
      isOpen: false,
      volumeCount: 2,
    };
    const fields = toBookFields(stored);
    expect(fields.classCode).toBeUndefined();
    expect(Object.keys(fields)).not.toContain('catalogId');
    expect(toUpdateRequest({ ...fields, classCode: 'JING' })).toMatchObject({
      classCode: 'JING',
      notes: '有朱筆圈點。',
    });
  });
});
