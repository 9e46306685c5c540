import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';

/** Host names whose request origin is always fit for shared caches (nobody else can be sent them). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/**
 * A Host header as RFC 3986 allows it here: a name of letters, digits, hyphens and dots, or a
 * bracketed IPv6 literal, and an optional port of digits; nothing else (no `@`, `/`, spaces).
 */
const HOST = /^(?<name>[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/**
 * The origin of the absolute URLs in a document other systems keep (IIIF ids, OAI-PMH identifiers and
 * links): PUBLIC_ORIGIN when configured, never the Host header then. Without it the request's own origin,
 * answered with `Vary: Host`; and unless the host is a loopback name or listed in PUBLIC_HOSTS, only
 * privately cacheable, so that a forged Host can never reach a shared cache.
 */
export function documentOrigin(
  config: Pick<Config, 'publicOrigin' | 'publicHosts'>,
  request: FastifyRequest,
  reply: FastifyReply,
): string {
  const configured = config.publicOrigin?.replace(/\/$/, '');
  if (configured) return configured;
  addVary(reply, 'host');
  const host = String(request.host ?? '').toLowerCase();
  const name = HOST.exec(host)?.groups?.name;
  if (!name) {
    // A malformed Host (`127.0.0.1:3391@evil.example`) never reaches an id: 400, cached by nobody.
    void reply.header('cache-control', 'no-store');
    reply.removeHeader('access-control-allow-origin');
    throw new AppError(400, 'BAD_HOST', '请求头 Host 无效：应为域名或 IP 地址，可带端口');
  }
  const listed = LOOPBACK_HOSTS.has(name) || config.publicHosts.includes(host);
  if (!listed) {
    const cache = String(reply.getHeader('cache-control') ?? '');
    void reply.header('cache-control', cache.replace('public', 'private') || 'private, max-age=300');
  }
  return `${request.protocol}://${host}`;
}

/** Adds a field to the Vary header, keeping those already named. */
export function addVary(reply: FastifyReply, field: string): void {
  const current = String(reply.getHeader('vary') ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (!current.some((f) => f.toLowerCase() === field))
    void reply.header('vary', [...current, field].join(', '));
}
