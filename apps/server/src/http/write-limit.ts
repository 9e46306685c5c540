import type { FastifyRequest } from 'fastify';

/**
 * Route options for a per-user limit on writes that others read or that make versions (comments, notes,
 * reservations, proofreading saves; issue 30 item 11: 60 public comments in a few seconds by one
 * reader): at most `perMinute` a minute for each signed-in user (each address without one), counted
 * in the database like every other limit, after the session is known. Beyond it: 429 with Retry-After.
 */
export function writeLimit(perMinute: number) {
  return {
    rateLimit: {
      max: perMinute,
      timeWindow: '1 minute',
      hook: 'preHandler',
      keyGenerator: (request: FastifyRequest) =>
        request.user ? `user:${request.user.id}` : `ip:${request.ip}`,
    },
  };
}
