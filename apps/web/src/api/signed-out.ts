/** Body codes that mean "the session is gone" (spec §8). */
const SIGNED_OUT_CODES = new Set(['310', '401']);

/** Whether a failed response means the session has ended (spec §8: HTTP 401, or body code 310/401). */
export function isSignedOutError(status: number, code: string | undefined): boolean {
  return status === 401 || (code !== undefined && SIGNED_OUT_CODES.has(code));
}
