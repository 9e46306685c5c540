import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are credentials: never written to the log (issue 30 item 9). */
const SECRET_PARAMS = new Set(['token', 'access_token', 'secret', 'password']);

/** A request URL with the values of its credential parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is kept as it is.
      }
      return eq !== -1 && SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/** The request as the log shows it: Fastify's fields, the URL with its credentials redacted. */
export function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}
