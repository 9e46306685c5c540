/**
 * Field rules of spec §5 and DESIGN.md §8, shared by the server (zod schemas) and the web forms,
 * so a rule and its message exist exactly once.
 */

/** Characters allowed in a password besides letters and digits. */
export const PASSWORD_SPECIALS = '~!@#$%^&*()_.';

export const LIMITS = {
  passwordMin: 8,
  passwordMax: 16,
  realNameMin: 2,
  realNameMax: 6,
  nicknameMin: 2,
  nicknameMax: 12,
  idCardLength: 18,
  phoneLength: 11,
  smsCodeLength: 6,
  /** Avatar upload limit in bytes (spec §5, §9). */
  avatarMaxBytes: 2_097_152,
  /** Seconds of the send-code countdown for registration and password reset. */
  smsCountdownLongSeconds: 300,
  /** Seconds of the send-code countdown everywhere else. */
  smsCountdownSeconds: 60,
  /** Lifetime of an SMS code. */
  smsCodeTtlSeconds: 300,
  /** Lifetime of an image captcha. */
  captchaTtlSeconds: 300,
  loginNameMax: 32,
  emailMax: 100,
  postMax: 100,
  addressMax: 200,
} as const;

export const AVATAR_EXTENSIONS = ['jpg', 'jpeg', 'bmp', 'png'] as const;

const passwordChars = /^[0-9A-Za-z~!@#$%^&*()_.]{8,16}$/;

/** Password rule: 8–16 characters from letters, digits and ~!@#$%^&*()_. with at least two kinds. */
export function isValidPassword(value: string): boolean {
  if (!passwordChars.test(value)) return false;
  const kinds = [/[A-Za-z]/, /[0-9]/, /[~!@#$%^&*()_.]/].filter((re) => re.test(value)).length;
  return kinds >= 2;
}

/** Mainland mobile number: 11 digits starting with 1 and a second digit 3–9. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const isValidPhone = (value: string): boolean => PHONE_PATTERN.test(value);

/** 2–6 Han characters (any Unicode Han block, so rare characters in names pass). */
export const REAL_NAME_PATTERN = /^\p{Script=Han}{2,6}$/u;
export const isValidRealName = (value: string): boolean => REAL_NAME_PATTERN.test(value);

/** Nickname: 2–12 letters, digits, underscores or Han characters, counted by code point. */
export const NICKNAME_PATTERN = /^[\p{Script=Han}A-Za-z0-9_]{2,12}$/u;
export const isValidNickname = (value: string): boolean => NICKNAME_PATTERN.test(value);

export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
export const isValidEmail = (value: string): boolean =>
  value.length <= LIMITS.emailMax && EMAIL_PATTERN.test(value);

export const SMS_CODE_PATTERN = /^\d{6}$/;
export const DIGITS_PATTERN = /^\d+$/;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/**
 * Mainland resident ID card: 18 characters, a real birth date (not in the future) and a valid
 * ISO 7064 MOD 11-2 check character.
 */
export function isValidIdCard(value: string, today: Date = new Date()): boolean {
  const id = value.toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  const year = Number(id.slice(6, 10));
  const month = Number(id.slice(10, 12));
  const day = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    year < 1900 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    date.getTime() > today.getTime()
  ) {
    return false;
  }
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(id[i]) * (ID_WEIGHTS[i] ?? 0);
  return ID_CHECK[sum % 11] === id[17];
}

const COMMON_PASSWORDS = new Set([
  '12345678a',
  'a12345678',
  'abc12345',
  'abcd1234',
  'a1234567',
  'aa123456',
  'qwer1234',
  'qwe12345',
  'password1',
  'passw0rd',
  '1qaz2wsx',
  'abc123456',
  '123456abc',
  '1234qwer',
  'asdf1234',
  'zxcv1234',
  'admin123',
  'admin888',
  'woaini1314',
  '11111111a',
  '88888888a',
]);

/**
 * A password is weak when it breaks the password rule (accounts created before it), is on the
 * list of commonly guessed passwords, or contains the user's login name or phone number.
 */
export function isWeakPassword(password: string, loginName: string, phone: string | null): boolean {
  if (!isValidPassword(password)) return true;
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return true;
  if (loginName.length >= 3 && lower.includes(loginName.toLowerCase())) return true;
  if (phone && phone.length >= 6 && password.includes(phone.slice(-6))) return true;
  return false;
}

/**
 * Characters no name or title may hold (issue 13): C0 and C1 control characters (DEL too); the
 * bidirectional formatting characters that reorder or disguise text — embeddings and overrides
 * U+202A–U+202E, isolates U+2066–U+2069 and the invisible marks U+200E, U+200F, U+061C; zero-width
 * characters (U+200B–U+200D, U+2060, U+FEFF); line and paragraph separators (U+2028, U+2029); and the
 * angle brackets `<` `>` of HTML tags. Names are always rendered as text; this keeps them honest too.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NAME_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff<>]/u;
export const isSafeName = (value: string): boolean => !NAME_UNSAFE.test(value);

/**
 * Characters no free text (comments, notes, introductions) may hold: control characters except tab,
 * line feed and carriage return, and the bidirectional formatting characters listed above.
 */
const TEXT_UNSAFE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
export const isSafeText = (value: string): boolean => !TEXT_UNSAFE.test(value);

/** An HTML tag's start: `<` then a letter, `/`, `!` or `?`, closed by `>` or not (`<b`, `<script`). */
export const HTML_TAG_START = /<\s*[/!?]?\s*[a-zA-Z!?]/;
export const hasHtmlTag = (value: string): boolean => HTML_TAG_START.test(value);

/**
 * Login names: Latin letters, digits, Han characters and `_ . - @` — no spaces, markup, invisible
 * characters or look-alike letters of other scripts (Cyrillic а for a).
 */
export const LOGIN_NAME_PATTERN = /^[\p{Script=Han}A-Za-z0-9_.@-]+$/u;
export const isValidLoginName = (value: string): boolean => LOGIN_NAME_PATTERN.test(value);

/** A name with its unsafe characters written as `U+202E` (`<` and `>` kept), for error messages. */
export const showUnsafe = (value: string): string =>
  value.replace(
    new RegExp(NAME_UNSAFE.source.replace('<>', ''), 'gu'),
    (c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
  );
