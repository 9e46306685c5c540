import { AppError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RateLimitRepository } from '../accounts/rate-limit.repository.ts';

/** The window of the public API's limits. */
export const API_RATE_WINDOW_SECONDS = 60;

/** What a counted request may know about its limit (sent as RateLimit-* headers). */
export interface RateState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

/**
 * Per-token (and, without a token, per-address) request limits of the public API, counted in the
 * database's `rate_limits` (the rate-limit store's table, http/rate-limit-store.ts), so every web
 * process behind the proxy counts the same requests. Time comes from the service clock.
 */
export class ApiRateLimiter {
  constructor(
    private readonly counts: RateLimitRepository,
    private readonly clock: Clock,
  ) {}

  /** Counts one request under `key`; throws 429 (with Retry-After) once the window's limit is passed. */
  async hit(key: string, limit: number): Promise<RateState> {
    const now = this.clock.now().getTime();
    const { hits, windowEnds } = await this.counts.hit(`api-v1|${key}`, now, API_RATE_WINDOW_SECONDS * 1000);
    const resetSeconds = Math.max(1, Math.ceil((windowEnds - now) / 1000));
    const state = { limit, remaining: Math.max(0, limit - hits), resetSeconds };
    if (hits > limit) throw rateLimited(state);
    return state;
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly state: RateState) {
    super(
      429,
      'RATE_LIMITED',
      `请求过于频繁：每分钟最多 ${state.limit} 次，请 ${state.resetSeconds} 秒后再试`,
      { retryAfterSeconds: state.resetSeconds },
    );
  }
}

const rateLimited = (state: RateState) => new RateLimitedError(state);
