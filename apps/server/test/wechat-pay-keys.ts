import { execFileSync } from 'node:child_process';
import { createCipheriv, createSign, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Keys, certificates, encryption and notices of the WeChat Pay stand-in (wechat-pay-stand-in.ts): what
 * WeChat signs and encrypts with, made with test keys.
 */

/** A key WeChat Pay signs with: a platform certificate's (its serial) or the public key's (PUB_KEY_ID_…). */
export interface WechatSigner {
  serial: string;
  privateKey: string;
  publicKey: string;
  /** The platform certificate (PEM); undefined for a public key. */
  certificate: string | undefined;
}

export const rsa = () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};

/** A 40-digit upper-case hex serial, like those of WeChat's certificates (positive: it starts with 1–7). */
export const newSerial = () =>
  `${1 + Math.floor(Math.random() * 7)}${randomBytes(20).toString('hex').slice(1)}`.toUpperCase();

/**
 * A fresh RSA key and its self-signed X.509 certificate with a given serial, made with the openssl tool
 * (node:crypto reads certificates but makes none): a stand-in platform or merchant certificate.
 */
export function certifiedKey(commonName: string, serial = newSerial()): WechatSigner {
  const keys = rsa();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-wxpay-'));
  try {
    fs.writeFileSync(path.join(dir, 'key.pem'), keys.privateKey);
    const certificate = execFileSync(
      'openssl',
      [
        'req',
        '-new',
        '-x509',
        '-key',
        path.join(dir, 'key.pem'),
        '-subj',
        `/C=CN/O=Stand-in/CN=${commonName}`,
        '-days',
        '3',
        '-set_serial',
        `0x${serial}`,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 },
    );
    return { serial, ...keys, certificate };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A key that is not WeChat's but claims a serial (a forger's). */
export function forgedSigner(serial: string): WechatSigner {
  return { serial, ...rsa(), certificate: undefined };
}

/** AEAD_AES_256_GCM as WeChat Pay applies it: base64 of the ciphertext followed by the 16-byte tag. */
export function encryptResource(
  key: string,
  plaintext: string,
  associatedData: string,
  nonce: string,
): string {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'utf8'), Buffer.from(nonce, 'utf8'));
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return data.toString('base64');
}

/** WeChat's signature of an answer or notice: RSA-SHA256 over "timestamp\nnonce\nbody\n". */
export function signedHeaders(signer: WechatSigner, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const nonce = randomBytes(16).toString('hex');
  const signature = createSign('RSA-SHA256')
    .update(`${timestamp}\n${nonce}\n${body}\n`, 'utf8')
    .sign(signer.privateKey, 'base64');
  return {
    'wechatpay-timestamp': String(timestamp),
    'wechatpay-nonce': nonce,
    'wechatpay-signature': signature,
    'wechatpay-serial': signer.serial,
    'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
  };
}

/** 12 printable characters: WeChat's nonce for an encrypted resource. */
export const resourceNonce = () => randomBytes(9).toString('base64').replace(/[+/]/g, 'x');

export interface Trade {
  appid: string;
  mchid: string;
  outTradeNo: string;
  description: string;
  timeExpire: string;
  notifyUrl: string;
  total: number;
  transactionId: string;
  /** The QR code's content the order was answered with. */
  codeUrl: string;
  state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND';
}

export interface Refund {
  refundId: string;
  outRefundNo: string;
  outTradeNo: string;
  transactionId: string;
  refund: number;
  total: number;
  status: 'SUCCESS' | 'PROCESSING' | 'ABNORMAL' | 'CLOSED';
  createTime: string;
}

export type Json = Record<string, unknown>;
export interface Reply {
  status: number;
  body?: Json;
}

export const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
export const fen = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
export const exactKeys = (value: Json, allowed: string[], required: string[]) =>
  Object.keys(value).every((k) => allowed.includes(k)) && required.every((k) => value[k] !== undefined);

/** What a test changes in a notice: before it is encrypted and signed, or (tamper) its raw text after. */
export interface NoticeOptions {
  transaction?: Json;
  event?: Json;
  signWith?: WechatSigner;
  timestamp?: number;
  apiV3Key?: string;
  tamper?: (raw: string) => string;
  id?: string;
}

/**
 * A notice for a trade (TRANSACTION.SUCCESS unless `transaction` says otherwise), as WeChat posts it to
 * the notify_url our order gave: the transaction encrypted under the APIv3 key (or `apiV3Key`), the JSON
 * signed with the platform key (or `signWith`, at `timestamp`). `transaction` and `event` change the
 * notice before it is encrypted and signed; `tamper` changes the raw text after.
 */
export function makeNotice(
  trade: Trade,
  wechat: { mchId: string; appId: string; apiV3Key: string; signer: WechatSigner },
  options: NoticeOptions = {},
): WechatNotice {
  const transaction = {
    mchid: wechat.mchId,
    appid: wechat.appId,
    out_trade_no: trade.outTradeNo,
    transaction_id: trade.transactionId,
    trade_type: 'NATIVE',
    trade_state: 'SUCCESS',
    trade_state_desc: '支付成功',
    bank_type: 'OTHERS',
    attach: '',
    success_time: '2026-06-01T16:00:05+08:00',
    payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
    amount: { total: trade.total, payer_total: trade.total, currency: 'CNY', payer_currency: 'CNY' },
    ...options.transaction,
  };
  const nonce = resourceNonce();
  const notice = {
    id: options.id ?? randomUUID(),
    create_time: '2026-06-01T16:00:06+08:00',
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: {
      original_type: 'transaction',
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: encryptResource(
        options.apiV3Key ?? wechat.apiV3Key,
        JSON.stringify(transaction),
        'transaction',
        nonce,
      ),
      associated_data: 'transaction',
      nonce,
    },
    ...options.event,
  };
  const signedRaw = JSON.stringify(notice);
  const headers = {
    'content-type': 'application/json',
    ...signedHeaders(options.signWith ?? wechat.signer, signedRaw, options.timestamp),
  };
  const raw = options.tamper ? options.tamper(signedRaw) : signedRaw;
  return { path: new URL(trade.notifyUrl).pathname, raw, headers, id: notice.id };
}

/** A notice as WeChat posts it: the path, the exact JSON text and the headers carrying its signature. */
export interface WechatNotice {
  path: string;
  raw: string;
  headers: Record<string, string>;
  id: string;
}
