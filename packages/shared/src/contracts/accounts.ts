import {
  AvatarFileParams,
  Captcha,
  ChangePasswordRequest,
  LoginRequest,
  LoginResponse,
  RegisterRequest,
  ResetPasswordRequest,
  SendCodeRequest,
  SendCodeResponse,
  SessionInfo,
  SessionUser,
  SsoRequest,
  UpdateProfileRequest,
  VerifyCodeRequest,
} from '../api/auth.ts';
import { OkBody } from '../api/common.ts';
import { contract } from '../contract.ts';

/** Session, captcha, registration, login, logout, SMS codes, recovery and single sign-on. */
export const authApi = {
  session: contract({
    method: 'GET',
    path: '/api/session',
    summary: 'The signed-in user (or null) and the reading-room flag',
    tags: ['auth'],
    response: SessionInfo,
  }),
  captcha: contract({
    method: 'GET',
    path: '/api/captcha',
    summary: 'A new image captcha (single use, valid 5 minutes)',
    tags: ['auth'],
    response: Captcha,
  }),
  login: contract({
    method: 'POST',
    path: '/api/auth/login',
    summary: 'Log in with name, password and image captcha',
    tags: ['auth'],
    body: LoginRequest,
    response: LoginResponse,
  }),
  logout: contract({
    method: 'POST',
    path: '/api/auth/logout',
    summary: 'End this session',
    tags: ['auth'],
    response: OkBody,
  }),
  register: contract({
    method: 'POST',
    path: '/api/auth/register',
    summary: 'Register (spec §7 registerUser)',
    tags: ['auth'],
    body: RegisterRequest,
    response: OkBody,
  }),
  sendSmsCode: contract({
    method: 'POST',
    path: '/api/sms/send',
    summary: 'Send an SMS code after an image captcha (spec §7 sendPhoneVCode)',
    tags: ['auth'],
    body: SendCodeRequest,
    response: SendCodeResponse,
  }),
  verifyRecoveryCode: contract({
    method: 'POST',
    path: '/api/auth/recovery/verify',
    summary: 'Recovery step 1: check the SMS code',
    tags: ['auth'],
    body: VerifyCodeRequest,
    response: OkBody,
  }),
  resetPassword: contract({
    method: 'POST',
    path: '/api/auth/recovery/reset',
    summary: 'Recovery step 2: set a new password with the SMS code (ends all sessions)',
    tags: ['auth'],
    body: ResetPasswordRequest,
    response: OkBody,
  }),
  sso: contract({
    method: 'POST',
    path: '/api/auth/sso',
    summary: 'Log in with a signed single-sign-on link (replaces the spec’s URL logins)',
    tags: ['auth'],
    body: SsoRequest,
    response: LoginResponse,
  }),
};

/** The signed-in user's own account: profile fields, avatar, password. */
export const profileApi = {
  get: contract({
    method: 'GET',
    path: '/api/me',
    summary: 'My information',
    tags: ['me'],
    response: SessionUser,
  }),
  update: contract({
    method: 'PATCH',
    path: '/api/me',
    summary: 'Change one profile field (a new phone needs its SMS code)',
    tags: ['me'],
    body: UpdateProfileRequest,
    response: SessionUser,
  }),
  uploadAvatar: contract({
    method: 'POST',
    path: '/api/me/avatar',
    summary: 'Upload an avatar (multipart field `file`; jpg, jpeg, bmp or png, at most 2 MB)',
    tags: ['me'],
    multipart: true,
    response: SessionUser,
  }),
  avatar: contract({
    method: 'GET',
    path: '/api/avatars/:file',
    summary: 'An avatar image',
    tags: ['me'],
    params: AvatarFileParams,
    response: null,
  }),
  changePassword: contract({
    method: 'POST',
    path: '/api/me/password',
    summary: 'Change my password; every session ends, so the client logs in again',
    tags: ['me'],
    body: ChangePasswordRequest,
    response: OkBody,
  }),
};
