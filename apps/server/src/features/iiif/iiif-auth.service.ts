import { createHmac } from 'node:crypto';
import type { SessionRepository } from '../accounts/session.repository.ts';
import type { UserRepository } from '../accounts/user.repository.ts';
import type { UserWithRoles } from '../../lib/user-view.ts';
import type { Clock } from '../../lib/clock.ts';
import { safeEqual } from '../../lib/crypto.ts';

/** What a signed IIIF credential is for: a viewer's bearer token, or the access cookie of image requests. */
export type IiifCredentialKind = 'bearer' | 'cookie';

/** Bearer tokens are short-lived: a viewer asks the token service again when one runs out. */
export const BEARER_TTL_S = 600;
/** The access cookie lives at most this long, and never beyond the session it is bound to. */
export const COOKIE_TTL_S = 12 * 3600;

interface Claims {
  /** Kind: bearer or cookie (a cookie's value is never accepted as a bearer token, nor the reverse). */
  k: IiifCredentialKind;
  /** User id. */
  u: number;
  /** The hash of the session the credential was issued in (as the sessions table keeps it). */
  s: string;
  /** Expiry, seconds since the epoch. */
  e: number;
}

/**
 * IIIF Authorization credentials (issue 18): HMAC-signed with a key derived from the session secret, so
 * every web process checks them without shared memory. Each is bound to the user and to the login session
 * it was issued in and is honoured only while that session is live: logging out (on the site or through
 * the IIIF logout service) ends every token and access cookie of the session at once.
 */
export class IiifAuthService {
  private readonly origins: ReadonlySet<string>;

  constructor(
    private readonly key: string,
    private readonly sessions: SessionRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    viewerOrigins: readonly string[],
  ) {
    this.origins = new Set(viewerOrigins);
  }

  /** Whether an origin is a configured viewer origin (IIIF_VIEWER_ORIGINS). */
  isViewerOrigin(origin: string | undefined): origin is string {
    return origin !== undefined && this.origins.has(origin.toLowerCase());
  }

  get viewerOrigins(): string[] {
    return [...this.origins];
  }

  /** A credential for a user, bound to the session whose token hash is `sessionHash`. */
  issue(kind: IiifCredentialKind, userId: number, sessionHash: string): { token: string; expiresIn: number } {
    const expiresIn = kind === 'bearer' ? BEARER_TTL_S : COOKIE_TTL_S;
    const claims: Claims = {
      k: kind,
      u: userId,
      s: sessionHash,
      e: Math.floor(this.clock.now().getTime() / 1000) + expiresIn,
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { token: `${payload}.${this.sign(payload)}`, expiresIn };
  }

  /**
   * The user a credential names, when its signature is ours, it is of the kind asked for, it has not
   * expired, its session is live and its user is neither gone nor disabled; otherwise undefined.
   */
  async verify(
    kind: IiifCredentialKind,
    token: string | undefined,
  ): Promise<{ user: UserWithRoles; sessionHash: string } | undefined> {
    const claims = this.claimsOf(token);
    if (!claims || claims.k !== kind) return undefined;
    const now = this.clock.now();
    if (claims.e * 1000 <= now.getTime()) return undefined;
    const session = await this.sessions.findActive(claims.s, now.toISOString());
    if (!session || session.user_id !== claims.u) return undefined;
    const user = await this.users.findById(claims.u);
    if (!user || user.disabled) return undefined;
    return { user, sessionHash: claims.s };
  }

  /** Ends the session a credential is bound to (the IIIF logout service, when no session cookie came). */
  async revokeSessionOf(kind: IiifCredentialKind, token: string | undefined): Promise<boolean> {
    const verified = await this.verify(kind, token);
    if (!verified) return false;
    await this.sessions.revoke(verified.sessionHash);
    return true;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(`iiif-auth:${payload}`).digest('base64url');
  }

  private claimsOf(token: string | undefined): Claims | undefined {
    if (!token || token.length > 600) return undefined;
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length > 0 || !safeEqual(signature, this.sign(payload)))
      return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Claims>;
      const valid =
        (claims.k === 'bearer' || claims.k === 'cookie') &&
        Number.isSafeInteger(claims.u) &&
        typeof claims.s === 'string' &&
        /^[0-9a-f]{64}$/.test(claims.s) &&
        Number.isSafeInteger(claims.e);
      return valid ? (claims as Claims) : undefined;
    } catch {
      return undefined;
    }
  }
}
