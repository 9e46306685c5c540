import {
  API_TOKEN_LIMITS,
  API_TOKEN_PREFIX,
  type ApiToken,
  type CreateApiTokenRequest,
  type CreatedApiToken,
} from '@guji/shared';
import type { Transact } from '../../db/query.ts';
import { conflict, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import type { UserRepository } from '../accounts/user.repository.ts';
import type { UserWithRoles } from '../../lib/user-view.ts';
import type { ApiTokenRepository, ApiTokenRow } from './api-token.repository.ts';

/** Characters of the secret kept and shown to tell tokens apart (`gj_` and five more). */
const SHOWN_PREFIX = API_TOKEN_PREFIX.length + 5;
/** The longest secret worth hashing: ours are 46 characters. */
const MAX_SECRET_LENGTH = 100;

/** A request's token and the user it acts for. */
export interface TokenCaller {
  token: ApiTokenRow;
  user: UserWithRoles;
}

/**
 * Personal API tokens (issue 18 part 7): created, listed and revoked by their owner in 我的信息; each a
 * 256-bit random secret shown once and stored as its SHA-256 (like sessions), so a database leak
 * yields no live token. A token acts as its user; a revoked token (its row deleted) or a disabled
 * user's token stops working with the next request.
 */
export class ApiTokenService {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly users: UserRepository,
    private readonly transact: Transact,
    private readonly clock: Clock,
  ) {}

  async list(userId: number): Promise<ApiToken[]> {
    return (await this.tokens.listForUser(userId)).map(toApiToken);
  }

  async create(userId: number, request: CreateApiTokenRequest): Promise<CreatedApiToken> {
    const secret = `${API_TOKEN_PREFIX}${randomToken()}`;
    const row = await this.transact(async (tx) => {
      await this.tokens.lockUser(userId, tx);
      if ((await this.tokens.countForUser(userId, tx)) >= API_TOKEN_LIMITS.perUser)
        throw conflict(
          'API_TOKEN_LIMIT',
          `每位用户最多 ${API_TOKEN_LIMITS.perUser} 个 API 令牌，请先撤销不再使用的令牌`,
        );
      return this.tokens.insert(
        {
          userId,
          name: request.name,
          prefix: secret.slice(0, SHOWN_PREFIX),
          hash: sha256(secret),
          createdAt: this.clock.now().toISOString(),
        },
        tx,
      );
    });
    return { ...toApiToken(row), secret };
  }

  /** Revokes one of the user's own tokens; another user's token is "not found", never revoked. */
  async revoke(userId: number, tokenId: number): Promise<void> {
    if (!(await this.tokens.delete(userId, tokenId))) throw notFound('API 令牌不存在或已撤销', 'NOT_FOUND');
  }

  /**
   * The token a secret names and its user, or undefined for an unknown or revoked token and for a
   * disabled user. Use is recorded at most once a minute.
   */
  async authenticate(secret: string): Promise<TokenCaller | undefined> {
    if (!secret.startsWith(API_TOKEN_PREFIX) || secret.length > MAX_SECRET_LENGTH) return undefined;
    const token = await this.tokens.findByHash(sha256(secret));
    if (!token) return undefined;
    const user = await this.users.findById(token.user_id);
    if (!user || user.disabled) return undefined;
    const now = this.clock.now();
    await this.tokens.touch(token.id, now.toISOString(), new Date(now.getTime() - 60_000).toISOString());
    return { token, user };
  }
}

export const toApiToken = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  prefix: row.token_prefix,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});
