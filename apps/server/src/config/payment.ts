import fs from 'node:fs';
import { createPrivateKey, createPublicKey } from 'node:crypto';

/** Alipay's configuration (docs/payments.md): from the environment or key files only, never logged. */
export interface AlipayConfig {
  appId: string;
  /** The application's private key, PKCS#8 PEM (normalised from what was given). */
  privateKey: string;
  /** Alipay's public key (the "支付宝公钥" of the application), SPKI PEM. */
  alipayPublicKey: string;
  /** The merchant's PID (seller_id); when set, notices for another seller are refused. */
  sellerId: string | undefined;
  /** The gateway: Alipay's own by default; its sandbox or a test stand-in when set. */
  gateway: string | undefined;
}

/** WeChat Pay's configuration (docs/payments.md): from the environment or key files only, never logged. */
export interface WechatPayConfig {
  /** The APPID bound to the merchant (公众号, 小程序 or 移动应用), `wx` and 16 characters. */
  appId: string;
  /** The merchant number (mchid). */
  mchId: string;
  /** The merchant's API private key (apiclient_key.pem), PKCS#8 PEM. */
  privateKey: string;
  /** The serial number of the merchant's API certificate, upper-case hex. */
  certSerial: string;
  /** The APIv3 key (32 bytes): decrypts notices and platform certificates. */
  apiV3Key: string;
  /** The API's origin: WeChat's own by default, a loopback stand-in in tests. */
  gateway: string;
  /** WeChat Pay's public key and its id (PUB_KEY_ID_…), when the merchant uses public-key verification. */
  publicKey: { id: string; pem: string } | undefined;
}

/** WeChat Pay's API (v3) origin. */
export const WECHATPAY_GATEWAY = 'https://api.mch.weixin.qq.com';

/** The payment variables of the environment (docs/configuration.md, docs/payments.md). */
export interface PaymentEnv {
  ALIPAY_APP_ID?: string | undefined;
  ALIPAY_PRIVATE_KEY?: string | undefined;
  ALIPAY_PRIVATE_KEY_FILE?: string | undefined;
  ALIPAY_PUBLIC_KEY?: string | undefined;
  ALIPAY_PUBLIC_KEY_FILE?: string | undefined;
  ALIPAY_SELLER_ID?: string | undefined;
  ALIPAY_GATEWAY?: string | undefined;
  WECHATPAY_APP_ID?: string | undefined;
  WECHATPAY_MCH_ID?: string | undefined;
  WECHATPAY_PRIVATE_KEY?: string | undefined;
  WECHATPAY_PRIVATE_KEY_FILE?: string | undefined;
  WECHATPAY_CERT_SERIAL?: string | undefined;
  WECHATPAY_API_V3_KEY?: string | undefined;
  WECHATPAY_API_V3_KEY_FILE?: string | undefined;
  WECHATPAY_PUBLIC_KEY?: string | undefined;
  WECHATPAY_PUBLIC_KEY_FILE?: string | undefined;
  WECHATPAY_PUBLIC_KEY_ID?: string | undefined;
  WECHATPAY_GATEWAY?: string | undefined;
}

const fail = (message: string): never => {
  throw new Error(`Invalid configuration: ${message} (see docs/payments.md)`);
};

/** A value given directly or in a file (NAME or NAME_FILE, not both); the value itself is never shown. */
function secretOf(value: string | undefined, file: string | undefined, name: string): string | undefined {
  if (value?.trim() && file?.trim()) fail(`set ${name} or ${name}_FILE, not both`);
  if (file?.trim()) {
    try {
      return fs.readFileSync(file.trim(), 'utf8').trim();
    } catch {
      return fail(`${name}_FILE cannot be read: ${file.trim()}`);
    }
  }
  return value?.trim() || undefined;
}

/** A PEM block, or the bare base64 body Alipay's key tool shows, as DER. */
const derOf = (text: string) =>
  Buffer.from(text.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');

/** The application's private key as PKCS#8 PEM, whether given as PKCS#8 or PKCS#1, PEM or bare base64. */
function privateKeyOf(text: string, name = 'ALIPAY_PRIVATE_KEY'): string {
  const attempts = [
    () => createPrivateKey(text),
    () => createPrivateKey({ key: derOf(text), format: 'der', type: 'pkcs8' }),
    () => createPrivateKey({ key: derOf(text), format: 'der', type: 'pkcs1' }),
  ];
  for (const attempt of attempts) {
    try {
      const key = attempt();
      if (key.asymmetricKeyType === 'rsa') return key.export({ format: 'pem', type: 'pkcs8' }).toString();
    } catch {
      // the next form
    }
  }
  return fail(`${name} is not an RSA private key (PKCS#8 or PKCS#1, PEM or base64)`);
}

function publicKeyOf(text: string, refusal = "ALIPAY_PUBLIC_KEY is not Alipay's RSA public key"): string {
  const attempts = [
    () => createPublicKey(text),
    () => createPublicKey({ key: derOf(text), format: 'der', type: 'spki' }),
  ];
  for (const attempt of attempts) {
    try {
      const key = attempt();
      if (key.asymmetricKeyType === 'rsa') return key.export({ format: 'pem', type: 'spki' }).toString();
    } catch {
      // the next form
    }
  }
  return fail(`${refusal} (PEM or base64)`);
}

/** Loopback http (the tests' stand-in) or any https gateway (Alipay's own, or its sandbox). */
function gatewayOf(text: string | undefined, name = 'ALIPAY_GATEWAY'): string | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const loopback = url?.protocol === 'http:' && /^(127\.0\.0\.1|localhost|\[::1\])$/.test(url.hostname);
  if (!url || (url.protocol !== 'https:' && !loopback))
    fail(`${name} must be an https address (or a loopback http stand-in in tests), got "${value}"`);
  return value;
}

/** Alipay's configuration for PAYMENT_PROVIDER=alipay; throws a clear error when a variable is missing. */
export function alipayConfigOf(e: PaymentEnv): AlipayConfig {
  const appId = e.ALIPAY_APP_ID?.trim();
  const privateKey = secretOf(e.ALIPAY_PRIVATE_KEY, e.ALIPAY_PRIVATE_KEY_FILE, 'ALIPAY_PRIVATE_KEY');
  const publicKey = secretOf(e.ALIPAY_PUBLIC_KEY, e.ALIPAY_PUBLIC_KEY_FILE, 'ALIPAY_PUBLIC_KEY');
  const missing = [
    appId ? '' : 'ALIPAY_APP_ID',
    privateKey ? '' : 'ALIPAY_PRIVATE_KEY (or ALIPAY_PRIVATE_KEY_FILE)',
    publicKey ? '' : 'ALIPAY_PUBLIC_KEY (or ALIPAY_PUBLIC_KEY_FILE)',
  ].filter(Boolean);
  if (missing.length > 0) fail(`PAYMENT_PROVIDER=alipay needs ${missing.join(', ')}`);
  if (!/^\d{16}$/.test(appId!)) fail(`ALIPAY_APP_ID is the application's 16-digit APPID, got "${appId}"`);
  const sellerId = e.ALIPAY_SELLER_ID?.trim() || undefined;
  if (sellerId && !/^2088\d{12}$/.test(sellerId))
    fail(`ALIPAY_SELLER_ID is the merchant's PID (2088 and 12 digits), got "${sellerId}"`);
  return {
    appId: appId!,
    privateKey: privateKeyOf(privateKey!),
    alipayPublicKey: publicKeyOf(publicKey!),
    sellerId,
    gateway: gatewayOf(e.ALIPAY_GATEWAY),
  };
}

/**
 * WeChat Pay's configuration for PAYMENT_PROVIDER=wechat; throws a clear error when a variable is missing
 * or malformed (naming it, never showing a secret).
 */
export function wechatConfigOf(e: PaymentEnv): WechatPayConfig {
  const appId = e.WECHATPAY_APP_ID?.trim();
  const mchId = e.WECHATPAY_MCH_ID?.trim();
  const privateKey = secretOf(e.WECHATPAY_PRIVATE_KEY, e.WECHATPAY_PRIVATE_KEY_FILE, 'WECHATPAY_PRIVATE_KEY');
  const certSerial = e.WECHATPAY_CERT_SERIAL?.trim();
  const apiV3Key = secretOf(e.WECHATPAY_API_V3_KEY, e.WECHATPAY_API_V3_KEY_FILE, 'WECHATPAY_API_V3_KEY');
  const missing = [
    appId ? '' : 'WECHATPAY_APP_ID',
    mchId ? '' : 'WECHATPAY_MCH_ID',
    privateKey ? '' : 'WECHATPAY_PRIVATE_KEY (or WECHATPAY_PRIVATE_KEY_FILE)',
    certSerial ? '' : 'WECHATPAY_CERT_SERIAL',
    apiV3Key ? '' : 'WECHATPAY_API_V3_KEY (or WECHATPAY_API_V3_KEY_FILE)',
  ].filter(Boolean);
  if (missing.length > 0) fail(`PAYMENT_PROVIDER=wechat needs ${missing.join(', ')}`);
  if (!/^wx[0-9A-Za-z]{16}$/.test(appId!))
    fail(`WECHATPAY_APP_ID is an APPID ("wx" and 16 characters), got "${appId}"`);
  if (!/^[1-9]\d{7,11}$/.test(mchId!))
    fail(`WECHATPAY_MCH_ID is the merchant number (digits), got "${mchId}"`);
  if (!/^[0-9A-Fa-f]{8,40}$/.test(certSerial!))
    fail(`WECHATPAY_CERT_SERIAL is the merchant API certificate's serial number (hex), got "${certSerial}"`);
  if (Buffer.byteLength(apiV3Key!, 'utf8') !== 32)
    fail('WECHATPAY_API_V3_KEY must be the 32-character APIv3 key');
  const publicKeyText = secretOf(e.WECHATPAY_PUBLIC_KEY, e.WECHATPAY_PUBLIC_KEY_FILE, 'WECHATPAY_PUBLIC_KEY');
  const publicKeyId = e.WECHATPAY_PUBLIC_KEY_ID?.trim();
  if (!publicKeyText !== !publicKeyId)
    fail('WECHATPAY_PUBLIC_KEY (or WECHATPAY_PUBLIC_KEY_FILE) and WECHATPAY_PUBLIC_KEY_ID go together');
  if (publicKeyId && !/^PUB_KEY_ID_\d{1,64}$/.test(publicKeyId))
    fail(
      `WECHATPAY_PUBLIC_KEY_ID is WeChat Pay's public key id (PUB_KEY_ID_ and digits), got "${publicKeyId}"`,
    );
  const gateway =
    gatewayOf(e.WECHATPAY_GATEWAY, 'WECHATPAY_GATEWAY')?.replace(/\/+$/, '') ?? WECHATPAY_GATEWAY;
  if (new URL(gateway).pathname !== '/' || new URL(gateway).search)
    fail(`WECHATPAY_GATEWAY is the API's origin, without a path, got "${gateway}"`);
  return {
    appId: appId!,
    mchId: mchId!,
    privateKey: privateKeyOf(privateKey!, 'WECHATPAY_PRIVATE_KEY'),
    certSerial: certSerial!.toUpperCase(),
    apiV3Key: apiV3Key!,
    gateway,
    publicKey:
      publicKeyText && publicKeyId
        ? {
            id: publicKeyId,
            pem: publicKeyOf(publicKeyText, "WECHATPAY_PUBLIC_KEY is not WeChat Pay's RSA public key"),
          }
        : undefined,
  };
}
