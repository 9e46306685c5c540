import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';

/** A URL-safe random token with 256 bits of entropy. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** SHA-256 hex digest, used to store session tokens so a database leak yields no live session. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const hmacHex = (secret: string, value: string): string =>
  createHmac('sha256', secret).update(value).digest('hex');

/** Constant-time comparison of two hex or text digests. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A six-digit SMS code. */
export const randomSixDigits = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

// argon2id with the library's defaults (19 MiB, t=2, p=1: the OWASP minimum).
export const hashPassword = (password: string): Promise<string> => argonHash(password);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argonVerify(passwordHash, password);
  } catch {
    return false;
  }
}
