import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RateLimitRepository } from '../features/accounts/rate-limit.repository.ts';

/**
 * A store for @fastify/rate-limit that keeps the counts in the database, so that every process behind a
 * proxy counts the same requests (issue 17); the library's default keeps them in each process's memory.
 * Each limited route counts under its own prefix (method and path).
 */
export function databaseRateLimitStore(repo: RateLimitRepository): FastifyRateLimitStoreCtor {
  class DatabaseStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = Date.now();
      repo.hit(`${this.prefix}${key}`, now, timeWindow).then(
        ({ hits, windowEnds }) => callback(null, { current: hits, ttl: Math.max(0, windowEnds - now) }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: { method: string | string[]; url: string }): FastifyRateLimitStore {
      const method = Array.isArray(routeOptions.method) ? routeOptions.method.join(',') : routeOptions.method;
      return new DatabaseStore(undefined, `${method} ${routeOptions.url}|`);
    }
  }
  return DatabaseStore;
}
