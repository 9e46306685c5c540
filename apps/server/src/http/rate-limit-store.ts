import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

/** Where the counts are kept: one hit under a key, answered with the window's count and its end (ms). */
export interface RateCounter {
  hit(key: string, nowMs: number, windowMs: number): Promise<{ hits: number; windowEnds: number }>;
}

/** What @fastify/rate-limit hands a store's child(). */
interface LimitOptions {
  groupId?: string;
  routeInfo?: { method?: string | string[]; url?: string };
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

    /**
     * The store of one limited route: @fastify/rate-limit passes the route's merged limit options, with
     * the route itself under `routeInfo` (empty for a limiter made with createRateLimit, whose keys
     * carry their own prefix) and a shared `groupId` where routes count together.
     */
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // Typed as the route's options, but at run time the merged limit options (index.js, onRoute): the
      // route's method and url read directly were undefined, so every limited route shared one count.
      const options = routeOptions as unknown as LimitOptions;
      if (options.groupId !== undefined) return new DatabaseStore(undefined, `group ${options.groupId}|`);
      const { method, url } = options.routeInfo ?? {};
      if (method === undefined || url === undefined) return new DatabaseStore(undefined, this.prefix);
      return new DatabaseStore(undefined, `${Array.isArray(method) ? method.join(',') : method} ${url}|`);
    }
  }
  return DatabaseStore;
}
