/**
 * The one error module (STYLE.md): factories carry an HTTP status, a stable machine code and a
 * Chinese message for the user. The handler in http/error-handler.ts turns them into responses.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra?: { retryAfterSeconds?: number },
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, message: string) => new AppError(400, code, message);
export const unauthorized = (message = '请先登录') => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = '无权限访问', code = 'FORBIDDEN') => new AppError(403, code, message);
export const notFound = (message = '温馨提示：暂无数据', code = 'NOT_FOUND') =>
  new AppError(404, code, message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
export const tooMany = (message: string, retryAfterSeconds?: number) =>
  new AppError(429, 'TOO_MANY_REQUESTS', message, retryAfterSeconds ? { retryAfterSeconds } : undefined);
export const payloadTooLarge = (message: string) => new AppError(413, 'PAYLOAD_TOO_LARGE', message);
/** A service the request needs (database, object store) cannot be reached now; worth retrying later. */
export const unavailable = (code: string, message: string, cause?: unknown) => {
  const error = new AppError(503, code, message, { retryAfterSeconds: 5 });
  if (cause !== undefined) error.cause = cause;
  return error;
};
