import { describe, expect, it } from 'vitest';
import {
  isValidEmail,
  isValidIdCard,
  isValidNickname,
  isValidPassword,
  isValidPhone,
  isValidRealName,
  isWeakPassword,
  hasHtmlTag,
  isSafeName,
  isSafeText,
  isValidLoginName,
  showUnsafe,
} from './validation.ts';
import { channelsForRoles } from './permissions.ts';

describe('password rule (8–16 characters, at least two kinds)', () => {
  it.each(['abcd1234', 'ABCD.efgh', '12345678_', 'Aa1~!@#$', 'a1234567890123456'.slice(0, 16)])(
    'accepts %s',
    (p) => {
      expect(isValidPassword(p)).toBe(true);
    },
  );
  it.each(['abcdefgh', '12345678', '~!@#$%^&*', 'Ab1', 'Abcdefgh123456789', 'abcd 1234', '密码密码1234'])(
    'refuses %s',
    (p) => {
      expect(isValidPassword(p)).toBe(false);
    },
  );
});

describe('ID card numbers', () => {
  it('accepts a number with a valid date and check character, in either case', () => {
    expect(isValidIdCard('11010519491231002X')).toBe(true);
    expect(isValidIdCard('11010519491231002x')).toBe(true);
  });
  it('refuses a wrong check character, an impossible date, a future date and a wrong length', () => {
    expect(isValidIdCard('110105194912310021')).toBe(false);
    expect(isValidIdCard('110105194902300020')).toBe(false);
    expect(isValidIdCard('110105209912310029', new Date('2026-01-01'))).toBe(false);
    expect(isValidIdCard('1101051949123100')).toBe(false);
  });
});

describe('other field rules', () => {
  it('checks mainland mobile numbers', () => {
    expect(isValidPhone('13912345678')).toBe(true);
    expect(isValidPhone('12912345678')).toBe(false);
    expect(isValidPhone('1391234567')).toBe(false);
  });
  it('checks real names of 2–6 Han characters, rare characters included', () => {
    expect(isValidRealName('张三')).toBe(true);
    expect(isValidRealName('𠀋𠀋')).toBe(true);
    expect(isValidRealName('张')).toBe(false);
    expect(isValidRealName('欧阳一二三四五')).toBe(false);
    expect(isValidRealName('Zhang')).toBe(false);
  });
  it('checks nicknames of 2–12 letters, digits, underscores or Han characters', () => {
    expect(isValidNickname('书虫_01')).toBe(true);
    expect(isValidNickname('a')).toBe(false);
    expect(isValidNickname('a b')).toBe(false);
  });
  it('checks e-mail addresses', () => {
    expect(isValidEmail('reader@library.cn')).toBe(true);
    expect(isValidEmail('reader@library')).toBe(false);
  });
});

describe('weak passwords', () => {
  it('are common ones, ones containing the login name or phone, and ones breaking the rule', () => {
    expect(isWeakPassword('abc12345', 'someone', null)).toBe(true);
    expect(isWeakPassword('zhangsan#1', 'zhangsan', null)).toBe(true);
    expect(isWeakPassword('x345678.ab', 'someone', '13912345678')).toBe(true);
    expect(isWeakPassword('123456', 'someone', null)).toBe(true);
    expect(isWeakPassword('Guji#2026ok', 'someone', '13912345678')).toBe(false);
  });
});

describe('channels', () => {
  it('open AdminPrint to print administrators and administrators only', () => {
    expect(channelsForRoles(['reader'])).not.toContain('AdminPrint');
    expect(channelsForRoles(['reader', 'printAdmin'])).toContain('AdminPrint');
    expect(channelsForRoles(['admin'])).toContain('AdminPrint');
    expect(channelsForRoles([])).toEqual([]);
  });
});

describe('names and free text (issue 13)', () => {
  it('names refuse control, bidi, zero-width characters and angle brackets', () => {
    for (const bad of [
      'a\u0000b',
      'a\u001fb',
      'a\u007fb',
      'a\u0085b',
      'a\u202eb',
      'a\u2066b',
      'a\u2069b',
      'a\u200eb',
      'a\u200fb',
      'a\u061cb',
      'a\u200bb',
      'a\ufeffb',
      'a\u2028b',
      'a<b',
      'a>b',
      'a\nb',
    ])
      expect(isSafeName(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ['論語集注', '《詩經》卷一', 'Scan 001 (1).png', '王氏·宗譜', 'a & b'])
      expect(isSafeName(good), good).toBe(true);
  });
  it('free text keeps line breaks and tabs and refuses the rest', () => {
    expect(isSafeText('第一行\n第二行\r\n\t第三行')).toBe(true);
    for (const bad of ['a\u0000', 'a\u0008', 'a\u202e', 'a\u2067', 'a\u200f'])
      expect(isSafeText(bad)).toBe(false);
  });
  it('an HTML tag start counts, closed or not; a bare < does not', () => {
    for (const tag of ['<b', '<script', '</b', '< b>', '<!--', '<?xml', 'x<img src=x'])
      expect(hasHtmlTag(tag), tag).toBe(true);
    for (const text of ['1 < 2', 'a <= b', '《論語》', '3<4']) expect(hasHtmlTag(text), text).toBe(false);
  });
  it('login names: Latin letters, digits, Han, _ . - @ only', () => {
    for (const good of ['reader01', '張三', 'zhang.san-1@lib', 'a_b'])
      expect(isValidLoginName(good), good).toBe(true);
    for (const bad of ['a b', '<b>', 'аdmin', 'ad\u202emin', 'a\u200bb', 'x\u0000'])
      expect(isValidLoginName(bad), bad).toBe(false);
  });
  it('shows unsafe characters by code point in messages', () => {
    expect(showUnsafe('scan\u202egnp.png')).toBe('scanU+202Egnp.png');
    expect(showUnsafe('<b>\u0007')).toBe('<b>U+0007');
  });
});
