import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

/** Where the counts are kept: one hit under a key, answered with the window's count and its end (ms). */
export interface RateCounter {
  hit(key: string, nowMs: number, windowMs: number): Promise<{ hits: number; windowEnds: number }>;
}

/**
 * A store for @fastify/rate-limit that keeps the counts in the database, so that every process behind a
 * proxy counts the same requests (issue 17); the library's default keeps them in each process's memory.
 * Each limited route counts under its own prefix (method and path).
 */
export function databaseRateLimitStore(repo: RateCounter): FastifyRateLimitStoreCtor {
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
