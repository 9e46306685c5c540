import { createDecipheriv } from 'node:crypto';

/** WeChat Pay API v3's formats (wechat-pay.ts): its encrypted resources, its times, its byte limits. */

/** A resource encrypted with AEAD_AES_256_GCM under the APIv3 key (notices, platform certificates). */
export interface EncryptedResource {
  algorithm?: unknown;
  ciphertext?: unknown;
  nonce?: unknown;
  associated_data?: unknown;
}

/** The plaintext of an AEAD_AES_256_GCM resource; throws when it was not made with this key. */
export function decryptResource(apiV3Key: string, resource: EncryptedResource): string {
  const { algorithm, ciphertext, nonce } = resource;
  const associated = resource.associated_data ?? '';
  if (algorithm !== 'AEAD_AES_256_GCM' || typeof ciphertext !== 'string' || typeof nonce !== 'string')
    throw new Error('not an AEAD_AES_256_GCM resource');
  if (typeof associated !== 'string') throw new Error('associated_data is not text');
  const data = Buffer.from(ciphertext, 'base64');
  if (data.length <= 16) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(associated, 'utf8'));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

/** At most `bytes` bytes of UTF-8, cut between characters (WeChat's description is 127 bytes at most). */
export function utf8Prefix(text: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const ch of text) {
    used += Buffer.byteLength(ch, 'utf8');
    if (used > bytes) break;
    out += ch;
  }
  return out;
}

/** RFC 3339 in Beijing time, as WeChat writes times: 2026-06-01T16:15:00+08:00. */
export function beijingTime(ms: number): string {
  return `${new Date(ms + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
}
