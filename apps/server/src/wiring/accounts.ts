import { createHmac } from 'node:crypto';
import { AuthService } from '../features/accounts/auth.service.ts';
import { CaptchaService } from '../features/accounts/captcha.service.ts';
import { SessionService } from '../features/accounts/session.service.ts';
import { createSmsProvider } from '../features/accounts/sms-providers.ts';
import { SmsService, type SmsProvider } from '../features/accounts/sms.service.ts';
import { IiifAuthService } from '../features/iiif/iiif-auth.service.ts';
import { UploadGate } from '../features/own-books/upload-gate.ts';
import { ProfileService } from '../features/profile/profile.service.ts';
import { ApiRateLimiter } from '../features/public-api/api-rate-limit.ts';
import { ApiTokenService } from '../features/public-api/api-token.service.ts';
import type { CoreServices } from './core.ts';
import type { WiringBase } from './deps.ts';

/** Signing in and who is signed in: captchas, SMS codes, sessions, accounts, IIIF and API tokens. */
export function accountServices(
  { config, repos, clock, secret, storage, transact }: WiringBase,
  { settings }: CoreServices,
  smsProvider: SmsProvider | undefined,
) {
  const captcha = new CaptchaService(repos.captchas, secret, clock);
  const sessions = new SessionService(repos.sessions, repos.users, config.sessionTtlMs, clock);
  const sms = new SmsService(
    repos.sms,
    smsProvider ?? createSmsProvider(config.sms, repos.sms),
    secret,
    clock,
    { settings: () => settings.get(), timeoutMs: config.sms.timeoutMs },
  );
  const auth = new AuthService({
    transact,
    users: repos.users,
    ssoNonces: repos.ssoNonces,
    sessions,
    captcha,
    sms,
    settings,
    clock,
    ssoSecret: config.ssoSecret,
  });
  return {
    captcha,
    sms,
    sessions,
    auth,
    profile: new ProfileService(repos.users, sms, storage, transact),
    /** IIIF Authorization: signed viewer tokens and access cookies bound to login sessions (issue 18). */
    iiifAuth: new IiifAuthService(
      createHmac('sha256', secret).update('iiif-auth').digest('hex'),
      repos.sessions,
      repos.users,
      clock,
      config.iiifViewerOrigins,
    ),
    /** The public API's personal tokens (/api/v1, issue 18 part 7). */
    apiTokens: new ApiTokenService(repos.apiTokens, repos.users, transact, clock),
    /** The public API's per-token and per-address request limits. */
    apiLimiter: new ApiRateLimiter(repos.rateLimits, clock),
    /** Each user's uploads in progress (issue 13 item 5). */
    uploads: new UploadGate(repos.uploadSlots, clock),
  };
}
