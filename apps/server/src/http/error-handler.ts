import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';
import { IiifRequestError } from '../iiif/image-request.ts';
import { MSG } from '@guji/shared';
import { isDatabaseUnreachable } from '../db/database.ts';

/**
 * The challenge every 401 carries (RFC 9110 §11.6.1): the credentials are the session cookie the
 * login page sets (the `Cookie` scheme of draft-broyer-http-cookie-auth), so a client knows where to
 * sign in.
 */
export const WWW_AUTHENTICATE = 'Cookie realm="guji", form-action="/Login", cookie-name="guji_session"';

/**
 * A multipart body that ended early or is malformed: busboy (under @fastify/multipart) rejects it with a
 * plain Error carrying no status ("Unexpected end of multipart data", "file terminated early due to
 * unexpected end of multipart data", "Multipart: Boundary not found"), or the request closed while it
 * was read. The client's fault, so 400 wherever the body is read, never a 500.
 */
export function isIncompleteMultipart(error: Pick<FastifyError, 'code' | 'statusCode' | 'message'>): boolean {
  if (error.code === 'FST_MP_PREMATURE_CLOSE') return true;
  if (error.statusCode !== undefined) return false;
  return /unexpected end of multipart data|^Multipart: Boundary not found$/i.test(error.message ?? '');
}

/** A write failed for want of space: the disk (or the user's quota, or SQLite's file) is full. */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/**
 * The one error handler: AppErrors keep their status, code and message; validation failures become
 * 400 with `path: message` details and the first message as the text; 5xx details never leave the server.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      // A service that could not be reached (503): the reader gets the clear message, the log the cause.
      if (error.status >= 500)
        request.log.warn({ err: error.cause ?? error, code: error.code }, error.message);
      // The public API (/api/v1) names its own scheme, Bearer.
      if (error.status === 401 && !reply.hasHeader('www-authenticate'))
        void reply.header('www-authenticate', WWW_AUTHENTICATE);
      if (error.extra?.retryAfterSeconds)
        void reply.header('retry-after', String(error.extra.retryAfterSeconds));
      return reply.status(error.status).send({ code: error.code, message: error.message });
    }
    if (error instanceof IiifRequestError) {
      return reply.status(error.status).send({ code: 'IIIF_BAD_REQUEST', message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: issue.message ?? '参数错误',
      }));
      return reply
        .status(400)
        .send({ code: 'VALIDATION', message: details[0]?.message ?? '参数错误', details });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ code: 'INTERNAL', message: MSG.serverException });
    }
    if (isIncompleteMultipart(error)) {
      return reply.status(400).send({ code: 'UPLOAD_INCOMPLETE', message: MSG.uploadIncomplete });
    }
    if (isDatabaseUnreachable(error)) {
      request.log.warn({ err: error }, 'database unreachable');
      void reply.header('retry-after', '5');
      return reply.status(503).send({ code: 'DATABASE_UNAVAILABLE', message: MSG.databaseUnavailable });
    }
    if (DISK_FULL.has(error.code)) {
      // Whatever the request was writing was removed again (temporary folders, renamed-into-place files).
      request.log.error({ err: error }, 'disk full');
      return reply.status(507).send({ code: 'DISK_FULL', message: MSG.diskFull });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ code: 'INTERNAL', message: MSG.serverException });
    }
    if (status === 429)
      return reply.status(429).send({ code: 'TOO_MANY_REQUESTS', message: '请求过于频繁，请稍后再试' });
    if (status === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.status(413).send({ code: 'PAYLOAD_TOO_LARGE', message: '上传的文件过大' });
    }
    if (status === 415)
      return reply.status(415).send({ code: 'UNSUPPORTED_MEDIA_TYPE', message: '不支持的请求格式' });
    return reply.status(status).send({ code: error.code || 'BAD_REQUEST', message: '请求有误' });
  });
}
