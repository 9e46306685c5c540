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
import type { Db } from '../db/database.ts';
import type { UserRepository, UserWithRoles } from '../repositories/user.repository.ts';
import type { SsoNonceRepository } from '../repositories/sso-nonce.repository.ts';
import { AppError, badRequest, conflict, forbidden, unauthorized } from '../errors.ts';
import type { CaptchaService } from './captcha.service.ts';
import type { SmsService } from './sms.service.ts';
import type { SessionService } from './session.service.ts';
import type { SettingsService } from './settings.service.ts';
import type { Clock } from './clock.ts';
import { hashPassword, hmacHex, randomToken, safeEqual, verifyPassword } from './crypto.ts';

export const AUTH_MESSAGES = {
  badCredentials: '用户名或密码错误',
  locked: (minutes: number) => `登录失败次数过多，账号已锁定，请${minutes}分钟后再试`,
  disabled: '该账号已停用，请联系管理员',
  loginNameTaken: '该用户名已被注册',
  phoneTaken: '该手机号已被注册',
  phoneUnknown: '该手机号未注册',
  oldPasswordWrong: '原密码错误',
  ssoOff: '未开启单点登录',
  ssoInvalid: '登录链接无效或已过期',
} as const;

export const LOCKOUT = { maxFailures: 5, minutes: 15 } as const;

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

/** Registration, login, logout, password change and recovery, single sign-on. */
export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly users: UserRepository,
    private readonly ssoNonces: SsoNonceRepository,
    private readonly sessions: SessionService,
    private readonly captcha: CaptchaService,
    private readonly sms: SmsService,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly ssoSecret: string | undefined,
  ) {}

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
    if (await this.users.findByLoginName(input.loginName))
      throw conflict('LOGIN_NAME_TAKEN', AUTH_MESSAGES.loginNameTaken);
    if (await this.users.findByPhone(input.phone)) throw conflict('PHONE_TAKEN', AUTH_MESSAGES.phoneTaken);
    await this.sms.check(input.phone, 'register', input.phoneCode, true);
    const passwordHash = await hashPassword(input.loginPassword);
    try {
      return await this.db.transaction().execute((tx) =>
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

  async login(input: LoginRequest, client: ClientInfo): Promise<LoginResult> {
    await this.captcha.verify(input.captchaId, input.captchaCode);
    const user = await this.users.findByLoginName(input.loginName);
    const now = this.clock.now();
    if (!user) {
      // Spend the same time as a real check so response times do not reveal which names exist.
      await verifyPassword(await dummyHash(), input.password);
      throw new AppError(401, 'BAD_CREDENTIALS', AUTH_MESSAGES.badCredentials);
    }
    if (user.locked_until && user.locked_until > now.toISOString()) {
      const minutes = Math.ceil((Date.parse(user.locked_until) - now.getTime()) / 60_000);
      throw new AppError(423, 'ACCOUNT_LOCKED', AUTH_MESSAGES.locked(minutes));
    }
    if (!(await verifyPassword(user.password_hash, input.password))) {
      if (user.failed_logins + 1 >= LOCKOUT.maxFailures) {
        await this.users.lock(user.id, new Date(now.getTime() + LOCKOUT.minutes * 60_000).toISOString());
        throw new AppError(423, 'ACCOUNT_LOCKED', AUTH_MESSAGES.locked(LOCKOUT.minutes));
      }
      await this.users.recordFailedLogin(user.id);
      throw new AppError(401, 'BAD_CREDENTIALS', AUTH_MESSAGES.badCredentials);
    }
    if (user.disabled) throw forbidden(AUTH_MESSAGES.disabled, 'ACCOUNT_DISABLED');
    if (user.failed_logins > 0 || user.locked_until) await this.users.resetFailedLogins(user.id);
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
    await this.users.update(userId, { password_hash: await hashPassword(input.newPassword) });
    await this.sessions.revokeAll(userId);
  }

  /** Recovery step 1: the code is right and still valid (it stays usable for step 2). */
  async verifyRecoveryCode(phone: string, code: string): Promise<void> {
    if (!(await this.users.findByPhone(phone))) throw badRequest('PHONE_UNKNOWN', AUTH_MESSAGES.phoneUnknown);
    await this.sms.check(phone, 'reset', code, false);
  }

  /** Recovery step 2: sets the new password, unlocks the account and ends its sessions. */
  async resetPassword(input: ResetPasswordRequest): Promise<void> {
    const user = await this.users.findByPhone(input.phone);
    if (!user) throw badRequest('PHONE_UNKNOWN', AUTH_MESSAGES.phoneUnknown);
    await this.sms.check(input.phone, 'reset', input.code, true);
    await this.users.update(user.id, {
      password_hash: await hashPassword(input.newPassword),
      failed_logins: 0,
      locked_until: null,
    });
    await this.sessions.revokeAll(user.id);
  }

  /**
   * Signed single-sign-on link (DESIGN.md §8): HMAC-SHA256 over `loginName\nphoneNum\nexpires\nnonce`
   * with SSO_SECRET; the nonce works once and the link expires. Off when no secret is configured.
   */
  async ssoLogin(input: SsoRequest, client: ClientInfo): Promise<LoginResult> {
    if (!this.ssoSecret) throw forbidden(AUTH_MESSAGES.ssoOff, 'SSO_DISABLED');
    const expected = signSso(this.ssoSecret, input);
    const now = this.clock.now();
    if (!safeEqual(expected, input.signature) || input.expires * 1000 < now.getTime()) {
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
    if (existing) {
      await this.users.update(existing.id, {
        password_hash: passwordHash,
        failed_logins: 0,
        locked_until: null,
      });
      await this.users.setRoles(existing.id, account.roles);
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
      this.db,
      this.clock.now(),
    );
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
