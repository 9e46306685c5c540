import { z } from 'zod';
import { MSG } from '../messages.ts';
import { isSafeName } from '../validation.ts';
import { Id } from './common.ts';

/**
 * Personal API tokens of the public read API (api/public-api.ts): created, listed and revoked by
 * their owner in 我的信息; each signs requests as `Authorization: Bearer <secret>`.
 */

/** How many live tokens one user may hold, and the longest token name. */
export const API_TOKEN_LIMITS = { perUser: 5, nameMax: 30 } as const;
/** Every token's secret starts with this, so a leaked one is recognisable in code and logs. */
export const API_TOKEN_PREFIX = 'gj_';

export const CreateApiTokenRequest = z.object({
  name: z
    .string({ error: '请填写令牌名称' })
    .trim()
    .min(1, '请填写令牌名称')
    .max(API_TOKEN_LIMITS.nameMax, `令牌名称不能超过 ${API_TOKEN_LIMITS.nameMax} 个字`)
    .refine(isSafeName, MSG.nameUnsafeChars),
});
export type CreateApiTokenRequest = z.infer<typeof CreateApiTokenRequest>;

/** A token as its owner's list shows it: never the secret, only its first characters. */
export const ApiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The secret's first characters, e.g. `gj_Q3xk9`. */
  prefix: z.string(),
  createdAt: z.string(),
  /** When it last signed a request (to the minute); null when never. */
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

/** The owner's tokens, with the limits that apply to them. */
export const ApiTokenList = z.object({
  tokens: z.array(ApiToken),
  /** At most this many tokens at once. */
  maxTokens: z.number().int(),
  /** Requests a minute each token may make; and a client without a token, per address. */
  tokenRateLimitPerMinute: z.number().int(),
  anonymousRateLimitPerMinute: z.number().int(),
});
export type ApiTokenList = z.infer<typeof ApiTokenList>;

/** A new token: the secret is in this answer only and is never shown again. */
export const CreatedApiToken = ApiToken.extend({ secret: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

export const ApiTokenIdParams = z.object({ tokenId: Id });
