import { z } from 'zod';
import { CHANNELS, ROLES } from '../permissions.ts';
import { MSG } from '../messages.ts';
import {
  LIMITS,
  isValidEmail,
  isValidIdCard,
  isValidPassword,
  isValidPhone,
  isValidRealName,
  isValidNickname,
  isValidLoginName,
  SMS_CODE_PATTERN,
} from '../validation.ts';

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

export const passwordField = z
  .string({ error: MSG.passwordRequired })
  .min(1, MSG.passwordRequired)
  .refine(isValidPassword, MSG.passwordPattern);
export const phoneField = required(MSG.phoneRequired).refine(isValidPhone, MSG.phoneInvalid);
export const smsCodeField = required(MSG.smsCodeRequired).regex(SMS_CODE_PATTERN, MSG.smsCodeDigits);
export const emailField = required(MSG.emailRequired).refine(isValidEmail, MSG.emailInvalid);
export const realNameField = required(MSG.realNameRequired).refine(isValidRealName, MSG.realNameRequired);
export const idCardField = required(MSG.idCardInvalid).refine((v) => isValidIdCard(v), MSG.idCardInvalid);

/** An image captcha (spec §3: vid and img). */
export const Captcha = z.object({
  captchaId: z.string().describe('Captcha id (the spec’s vid); send it back with the answer'),
  image: z.string().describe('SVG image as a data: URL (the spec’s img)'),
  expiresInSeconds: z.number().int(),
});
export type Captcha = z.infer<typeof Captcha>;

export const CaptchaAnswer = z.object({
  captchaId: z.string().min(1, MSG.imageCaptchaRequired).max(64),
  captchaCode: required(MSG.imageCaptchaRequired).max(10),
});

/** The signed-in user as the client sees it. Never carries a password hash or a code. */
export const SessionUser = z.object({
  userId: z.number().int(),
  loginName: z.string(),
  nickName: z.string().nullable(),
  realName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  idCard: z.string().nullable().describe('Masked except the first 3 and last 4 characters'),
  post: z.string().nullable(),
  address: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  roles: z.array(z.enum(ROLES)),
  channels: z.array(z.enum(CHANNELS)).describe('Personal-area channels this user may open'),
  flag: z.string().describe("Reader category (spec user flag): '1' ordinary, '2' research reader"),
  flagExpiresAt: z.string().nullable().describe('When a research reader’s category ends; null: no end'),
});
export type SessionUser = z.infer<typeof SessionUser>;

export const SessionInfo = z.object({
  user: SessionUser.nullable(),
  readingRoom: z.boolean().describe('Whether this request comes from the reading room'),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const LoginRequest = z.object({
  loginName: required(MSG.loginNameRequired).max(LIMITS.loginNameMax),
  password: z.string({ error: MSG.passwordRequired }).min(1, MSG.passwordRequired).max(64),
  captchaId: z.string().min(1, MSG.captchaRequired).max(64),
  captchaCode: required(MSG.captchaRequired).max(10),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const LoginResponse = z.object({
  user: SessionUser,
  weakPassword: z
    .boolean()
    .describe('True when the password is weak: the client sends the user to change it'),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

export const RegisterRequest = z.object({
  post: required(MSG.postRequired).max(LIMITS.postMax).describe('Workplace'),
  loginName: required(MSG.loginNameRequired)
    .max(LIMITS.loginNameMax)
    .refine(isValidLoginName, MSG.loginNameInvalid),
  realName: z.string().trim().optional().describe('Required when the site asks for real names'),
  idCard: z.string().trim().optional().describe('Required when the site asks for real names'),
  phone: phoneField,
  phoneCode: smsCodeField,
  loginPassword: passwordField,
  email: emailField,
  address: z.string().trim().max(LIMITS.addressMax).optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const SMS_PURPOSES = ['register', 'reset', 'profile'] as const;
export type SmsPurpose = (typeof SMS_PURPOSES)[number];

export const SendCodeRequest = CaptchaAnswer.extend({
  phone: required(MSG.phoneInvalidForCode).refine(isValidPhone, MSG.phoneInvalidForCode),
  purpose: z
    .enum(SMS_PURPOSES)
    .describe('register, reset (password recovery) or profile (changing the phone)'),
});
export type SendCodeRequest = z.infer<typeof SendCodeRequest>;

export const SendCodeResponse = z.object({
  ok: z.literal(true),
  countdownSeconds: z.number().int().describe('Seconds before another code may be requested'),
  expiresInSeconds: z.number().int(),
});
export type SendCodeResponse = z.infer<typeof SendCodeResponse>;

export const VerifyCodeRequest = z.object({ phone: phoneField, code: smsCodeField });
export type VerifyCodeRequest = z.infer<typeof VerifyCodeRequest>;

export const ResetPasswordRequest = z.object({
  phone: phoneField,
  code: smsCodeField,
  newPassword: passwordField,
});
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

export const ChangePasswordRequest = z.object({
  oldPassword: z.string().min(1, MSG.oldPasswordRequired).max(64),
  newPassword: z.string().min(1, MSG.newPasswordRequired).refine(isValidPassword, MSG.passwordPattern),
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** One profile field at a time (spec §7 user update). */
export const UpdateProfileRequest = z.discriminatedUnion('field', [
  z.object({
    field: z.literal('nickName'),
    value: z.string().trim().refine(isValidNickname, MSG.nicknameInvalid),
  }),
  z.object({
    field: z.literal('realName'),
    value: z.string().trim().refine(isValidRealName, MSG.realNameInvalid),
  }),
  z.object({
    field: z.literal('email'),
    value: z.string().trim().refine(isValidEmail, MSG.profileEmailInvalid),
  }),
  z.object({
    field: z.literal('idCard'),
    value: z
      .string()
      .trim()
      .refine((v) => isValidIdCard(v), MSG.profileIdCardInvalid),
  }),
  z.object({
    field: z.literal('phone'),
    value: z.string().trim().refine(isValidPhone, MSG.profilePhoneInvalid),
    phoneCode: z.string().trim().regex(SMS_CODE_PATTERN, MSG.profileCodeRequired),
  }),
]);
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequest>;

export const SsoRequest = z.object({
  loginName: z.string().min(1).max(LIMITS.loginNameMax),
  phoneNum: z.string().min(1).max(20),
  expires: z.coerce.number().int().describe('Unix time in seconds after which the link is refused'),
  nonce: z.string().min(8).max(64),
  signature: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .describe('Hex HMAC-SHA256 of loginName, phoneNum, expires, nonce'),
});
export type SsoRequest = z.infer<typeof SsoRequest>;

export const SmsOutboxEntry = z.object({
  id: z.number().int(),
  phone: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export type SmsOutboxEntry = z.infer<typeof SmsOutboxEntry>;

/** An avatar's stored file name, as `/api/avatars/:file` takes it. */
export const AvatarFileParams = z.object({ file: z.string().max(80) });
export type AvatarFileParams = z.infer<typeof AvatarFileParams>;
