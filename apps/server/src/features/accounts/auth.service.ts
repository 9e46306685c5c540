import { isIP } from 'node:net';
import {
  isValidIdCard,
  isValidRealName,
  isWeakPassword,
  MSG,
  type ChangePasswordRequest,
  type LoginRequest,
  type RegisterRequest,
  type ResetPasswordRequest,
  type Role,
  type SendCodeRequest,
  type SsoRequest,
} from '@guji/shared';
import type { Transact } from '../../db/query.ts';
import type { UserRepository } from './user.repository.ts';
import type { UserWithRoles } from '../../lib/user-view.ts';
import type { SsoNonceRepository } from './sso-nonce.repository.ts';
import { AppError, badRequest, conflict, forbidden, unauthorized } from '../../errors.ts';
import type { CaptchaService } from './captcha.service.ts';
import { SMS_MESSAGES, type SmsService } from './sms.service.ts';
import type { SessionService } from './session.service.ts';
import type { SettingsService } from '../site/settings.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword, hmacHex, randomToken, safeEqual, verifyPassword } from '../../lib/crypto.ts';

export const AUTH_MESSAGES = {
  badCredentials: '用户名或密码错误',
  locked: (minutes: number) => `登录失败次数过多，请${minutes}分钟后再试`,
  loginNameTaken: '该用户名已被注册',
  phoneTaken: '该手机号已被注册',
  phoneUnknown: '该手机号未注册',
  oldPasswordWrong: '原密码错误',
  ssoOff: '未开启单点登录',
  ssoInvalid: '登录链接无效或已过期',
} as const;

/**
 * Login throttling (DESIGN.md §8, issue 13 item 12). Failures are counted per login name and client
 * address, known and unknown names alike: `maxFailures` wrong passwords within `windowMinutes` lock
 * that name for that address only, for `minutes`; the owner elsewhere still logs in. Failures of a
 * name from every address slow each further attempt on it (`slowDownMs`), which never refuses one.
 */
export const LOCKOUT = {
  maxFailures: 5,
  minutes: 15,
  windowMinutes: 15,
  /** Failures of one name from all addresses in the window after which attempts are held back. */
  slowAfter: 10,
  /** The most an attempt is held back. */
  maxDelayMs: 5_000,
} as const;

/** Links for single sign-on may expire at most this far ahead (a longer-lived link is refused). */
export const SSO_MAX_LIFETIME_SECONDS = 600;

/** How long an attempt on a login name waits, given the name's failures from every address. */
export function slowDownMs(failures: number): number {
  if (failures < LOCKOUT.slowAfter) return 0;
  return Math.min(LOCKOUT.maxDelayMs, (failures - LOCKOUT.slowAfter + 1) * 500);
}

/**
 * The client a login failure is counted against: its address, an IPv6 address by its /64 network
 * (one subscriber holds a whole /64, so its addresses are one client).
 */
export function clientKeyOf(ip: string | null): string {
  if (!ip) return '-';
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip.split('%')[0]!;
  if (isIP(plain) !== 6) return plain;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const width = (list: string[]) => list.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  let all: string[];
  if (plain.includes('::')) {
    const [head = '', tail = ''] = plain.split('::');
    const [h, t] = [groups(head), groups(tail)];
    all = [...h, ...Array<string>(Math.max(0, 8 - width(h) - width(t))).fill('0'), ...t];
  } else {
    all = groups(plain);
  }
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export interface LoginResult {
  user: UserWithRoles;
  token: string;
  expiresAt: Date;
  weakPassword: boolean;
}

/** What AuthService is built from (wiring/). */
export interface AuthDeps {
  transact: Transact;
  users: UserRepository;
  ssoNonces: SsoNonceRepository;
  sessions: SessionService;
  captcha: CaptchaService;
  sms: SmsService;
  settings: SettingsService;
  clock: Clock;
  ssoSecret: string | undefined;
  /** Holds an attempt back (the account-wide slow-down): a timer, injectable. */
  wait?: (ms: number) => Promise<void>;
}

/** Registration, login, logout, password change and recovery, single sign-on. */
export class AuthService {
  private readonly transact: Transact;
  private readonly users: UserRepository;
  private readonly ssoNonces: SsoNonceRepository;
  private readonly sessions: SessionService;
  private readonly captcha: CaptchaService;
  private readonly sms: SmsService;
  private readonly settings: SettingsService;
  private readonly clock: Clock;
  private readonly ssoSecret: string | undefined;
  /** Holds an attempt back (the account-wide slow-down): a timer, injectable. */
  private readonly wait: (ms: number) => Promise<void>;

  constructor(deps: AuthDeps) {
    this.transact = deps.transact;
    this.users = deps.users;
    this.ssoNonces = deps.ssoNonces;
    this.sessions = deps.sessions;
    this.captcha = deps.captcha;
    this.sms = deps.sms;
    this.settings = deps.settings;
    this.clock = deps.clock;
    this.ssoSecret = deps.ssoSecret;
    this.wait = deps.wait ?? sleep;
  }

  /** Checks the captcha and the target phone, then sends a code (spec §7 sendPhoneVCode). */
  async sendCode(
    input: SendCodeRequest,
    client: ClientInfo,
    currentUserId?: number,
  ): Promise<{ countdownSeconds: number }> {
    await this.captcha.verify(input.captchaId, input.captchaCode);
    const owner = await this.users.findByPhone(input.phone);
    switch (input.purpose) {
      case 'register':
        if (owner) throw conflict('PHONE_TAKEN', AUTH_MESSAGES.phoneTaken);
        break;
      case 'reset':
        if (!owner) throw badRequest('PHONE_UNKNOWN', AUTH_MESSAGES.phoneUnknown);
        break;
      case 'profile':
        if (currentUserId === undefined) throw unauthorized();
        if (owner && owner.id !== currentUserId) throw conflict('PHONE_TAKEN', AUTH_MESSAGES.phoneTaken);
        break;
    }
    return this.sms.sendCode(input.phone, input.purpose, client.ip);
  }

  async register(input: RegisterRequest): Promise<number> {
    const site = await this.settings.get();
    let realName: string | null = input.realName?.trim() || null;
    let idCard: string | null = input.idCard?.trim().toUpperCase() || null;
    if (site.requireRealName) {
      if (!realName || !isValidRealName(realName)) throw badRequest('VALIDATION', MSG.realNameRequired);
      if (!idCard || !isValidIdCard(idCard)) throw badRequest('VALIDATION', MSG.idCardInvalid);
    } else {
      // The short form has no such fields; anything sent is checked, never stored unchecked.
      if (realName && !isValidRealName(realName)) realName = null;
      if (idCard && !isValidIdCard(idCard)) idCard = null;
    }
    // The SMS code first (issue 13 item 12): it was sent only behind the captcha, so without it every
    // request gets the same answer and the form tells no one which names or phones exist. A right code
    // is kept (not consumed) through the name check, so a taken name can be corrected and sent again.
    await this.sms.check(input.phone, 'register', input.phoneCode, false);
    if (await this.users.findByLoginName(input.loginName))
      throw conflict('LOGIN_NAME_TAKEN', AUTH_MESSAGES.loginNameTaken);
    if (await this.users.findByPhone(input.phone)) throw conflict('PHONE_TAKEN', AUTH_MESSAGES.phoneTaken);
    await this.sms.check(input.phone, 'register', input.phoneCode, true);
    const passwordHash = await hashPassword(input.loginPassword);
    try {
      return await this.transact((tx) =>
        this.users.create(
          {
            login_name: input.loginName,
            password_hash: passwordHash,
            nick_name: null,
            real_name: realName,
            id_card: idCard,
            phone: input.phone,
            email: input.email,
            post: input.post,
            address: input.address?.trim() || null,
            avatar_file: null,
            locked_until: null,
          },
          ['reader'],
          tx,
          this.clock.now(),
        ),
      );
    } catch (error) {
      // Two registrations racing for the same name or phone: the unique index decides.
      if (await this.users.findByLoginName(input.loginName))
        throw conflict('LOGIN_NAME_TAKEN', AUTH_MESSAGES.loginNameTaken);
      if (await this.users.findByPhone(input.phone)) throw conflict('PHONE_TAKEN', AUTH_MESSAGES.phoneTaken);
      throw error;
    }
  }

  /**
   * Logs in. Unknown names, wrong passwords and disabled accounts get one answer (a disabled account
   * is not confirmed even to the right password); failures are throttled per name and address.
   */
  async login(input: LoginRequest, client: ClientInfo): Promise<LoginResult> {
    await this.captcha.verify(input.captchaId, input.captchaCode);
    const now = this.clock.now();
    const loginKey = input.loginName;
    const clientKey = clientKeyOf(client.ip);
    const counts = await this.users.loginFailures(loginKey, clientKey);
    const lockedUntil = counts.client?.locked_until;
    if (lockedUntil && lockedUntil > now.toISOString()) {
      const minutes = Math.ceil((Date.parse(lockedUntil) - now.getTime()) / 60_000);
      throw new AppError(423, 'ACCOUNT_LOCKED', AUTH_MESSAGES.locked(minutes));
    }
    const windowStart = new Date(now.getTime() - LOCKOUT.windowMinutes * 60_000).toISOString();
    const recent = counts.all && counts.all.window_started_at >= windowStart ? counts.all.failures : 0;
    const delay = slowDownMs(recent);
    if (delay > 0) await this.wait(delay);
    const user = await this.users.findByLoginName(input.loginName);
    // An unknown name spends the same time on a hash so response times do not tell names apart.
    const passwordOk = await verifyPassword(user?.password_hash ?? (await dummyHash()), input.password);
    if (!user || !passwordOk || user.disabled) {
      const at = now.toISOString();
      await this.users.recordLoginFailure(loginKey, '*', at, windowStart);
      const failures = await this.users.recordLoginFailure(loginKey, clientKey, at, windowStart);
      if (failures >= LOCKOUT.maxFailures) {
        const until = new Date(now.getTime() + LOCKOUT.minutes * 60_000).toISOString();
        await this.users.lockLogin(loginKey, clientKey, until, at);
        throw new AppError(423, 'ACCOUNT_LOCKED', AUTH_MESSAGES.locked(LOCKOUT.minutes));
      }
      throw new AppError(401, 'BAD_CREDENTIALS', AUTH_MESSAGES.badCredentials);
    }
    if (counts.client) await this.transact((tx) => this.users.clearLoginFailures(loginKey, clientKey, tx));
    const session = await this.sessions.create(user.id, client.ip, client.userAgent);
    return { user, ...session, weakPassword: isWeakPassword(input.password, user.login_name, user.phone) };
  }

  logout(token: string): Promise<void> {
    return this.sessions.revoke(token);
  }

  /** Changes the password and ends every session of the user, this one included. */
  async changePassword(userId: number, input: ChangePasswordRequest): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user) throw unauthorized();
    if (!(await verifyPassword(user.password_hash, input.oldPassword))) {
      throw badRequest('OLD_PASSWORD_WRONG', AUTH_MESSAGES.oldPasswordWrong);
    }
    const passwordHash = await hashPassword(input.newPassword);
    await this.transact(async (tx) => {
      await this.users.update(userId, { password_hash: passwordHash }, tx);
      await this.sessions.revokeAll(userId, tx);
    });
  }

  /**
   * Recovery step 1: the code is right and still valid (it stays usable for step 2). Only the code
   * is checked, so an unknown phone gets the answer of a known one without a code: a reset code
   * exists only for a registered phone, and step 0 (behind the image captcha) is where a phone is
   * said to be unknown.
   */
  async verifyRecoveryCode(phone: string, code: string): Promise<void> {
    await this.sms.check(phone, 'reset', code, false);
  }

  /** Recovery step 2: sets the new password, lifts the login throttle and ends the user's sessions. */
  async resetPassword(input: ResetPasswordRequest): Promise<void> {
    await this.sms.check(input.phone, 'reset', input.code, true);
    const user = await this.users.findByPhone(input.phone);
    if (!user) throw badRequest('SMS_CODE_MISSING', SMS_MESSAGES.missing);
    const passwordHash = await hashPassword(input.newPassword);
    await this.transact(async (tx) => {
      await this.users.update(
        user.id,
        { password_hash: passwordHash, failed_logins: 0, locked_until: null },
        tx,
      );
      await this.users.clearLoginFailures(user.login_name, undefined, tx);
      await this.sessions.revokeAll(user.id, tx);
    });
  }

  /**
   * Signed single-sign-on link (DESIGN.md §8): HMAC-SHA256 over `loginName\nphoneNum\nexpires\nnonce`
   * with SSO_SECRET; the nonce works once and the link expires, at most SSO_MAX_LIFETIME_SECONDS
   * ahead (a link valid for longer is refused). Off when no secret is configured.
   */
  async ssoLogin(input: SsoRequest, client: ClientInfo): Promise<LoginResult> {
    if (!this.ssoSecret) throw forbidden(AUTH_MESSAGES.ssoOff, 'SSO_DISABLED');
    const expected = signSso(this.ssoSecret, input);
    const now = this.clock.now();
    const expiresMs = input.expires * 1000;
    if (
      !safeEqual(expected, input.signature) ||
      expiresMs < now.getTime() ||
      expiresMs > now.getTime() + SSO_MAX_LIFETIME_SECONDS * 1000
    ) {
      throw new AppError(401, 'SSO_INVALID', AUTH_MESSAGES.ssoInvalid);
    }
    const user = await this.users.findByLoginName(input.loginName);
    if (!user || user.phone !== input.phoneNum || user.disabled) {
      throw new AppError(401, 'SSO_INVALID', AUTH_MESSAGES.ssoInvalid);
    }
    if (!(await this.ssoNonces.use(input.nonce, now.toISOString()))) {
      throw new AppError(401, 'SSO_INVALID', AUTH_MESSAGES.ssoInvalid);
    }
    const session = await this.sessions.create(user.id, client.ip, client.userAgent);
    return { user, ...session, weakPassword: false };
  }

  /** Creates or updates an account from the command line (`create-admin`, demo accounts). */
  async upsertAccount(account: {
    loginName: string;
    password: string;
    roles: Role[];
    phone?: string;
    nickName?: string;
    realName?: string;
    email?: string;
  }): Promise<number> {
    const passwordHash = await hashPassword(account.password);
    const existing = await this.users.findByLoginName(account.loginName);
    return this.transact(async (tx) => {
      if (existing) {
        await this.users.update(
          existing.id,
          { password_hash: passwordHash, failed_logins: 0, locked_until: null },
          tx,
        );
        await this.users.setRoles(existing.id, account.roles, tx);
        await this.users.clearLoginFailures(existing.login_name, undefined, tx);
        return existing.id;
      }
      return this.users.create(
        {
          login_name: account.loginName,
          password_hash: passwordHash,
          phone: account.phone ?? null,
          nick_name: account.nickName ?? null,
          real_name: account.realName ?? null,
          email: account.email ?? null,
        },
        account.roles,
        tx,
        this.clock.now(),
      );
    });
  }
}

/** The signature of a single-sign-on link; used by the server and by whoever issues links. */
export function signSso(
  secret: string,
  link: Pick<SsoRequest, 'loginName' | 'phoneNum' | 'expires' | 'nonce'>,
): string {
  return hmacHex(secret, `${link.loginName}\n${link.phoneNum}\n${link.expires}\n${link.nonce}`);
}

// A hash of a random string, checked against when the login name is unknown.
let dummy: Promise<string> | undefined;
const dummyHash = (): Promise<string> => (dummy ??= hashPassword(randomToken()));
