import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { configError } from '../../../test/helpers.ts';
import { rsaKeys } from '../../../test/alipay-stand-in.ts';

/** PAYMENT_PROVIDER=alipay refuses to start without its configuration, with a clear message. */
describe('payment provider configuration', () => {
  const app = rsaKeys();
  const alipay = rsaKeys();
  const base = { DATA_DIR: os.tmpdir(), PAYMENT_PROVIDER: 'alipay' };
  const good = {
    ...base,
    ALIPAY_APP_ID: '2021000000000001',
    ALIPAY_PRIVATE_KEY: app.privateKey,
    ALIPAY_PUBLIC_KEY: alipay.publicKey,
  };

  it('names every missing variable', () => {
    expect(() => loadConfig(base)).toThrow(
      'Invalid configuration: PAYMENT_PROVIDER=alipay needs ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY (or ALIPAY_PRIVATE_KEY_FILE), ALIPAY_PUBLIC_KEY (or ALIPAY_PUBLIC_KEY_FILE) (see docs/payments.md)',
    );
    expect(() => loadConfig({ ...good, ALIPAY_PUBLIC_KEY: ' ' })).toThrow(/needs ALIPAY_PUBLIC_KEY/);
  });

  it('refuses malformed values without showing a secret', () => {
    const refuse = (env: Record<string, string>, message: RegExp) => {
      const error = configError({ ...good, ...env });
      expect(error).toMatch(message);
      expect(error).not.toContain('MII');
    };
    refuse({ ALIPAY_APP_ID: '123' }, /ALIPAY_APP_ID is the application's 16-digit APPID/);
    refuse({ ALIPAY_PRIVATE_KEY: 'not a key' }, /ALIPAY_PRIVATE_KEY is not an RSA private key/);
    refuse({ ALIPAY_PRIVATE_KEY: alipay.publicKey }, /ALIPAY_PRIVATE_KEY is not an RSA private key/);
    refuse({ ALIPAY_PUBLIC_KEY: 'MIIB' }, /ALIPAY_PUBLIC_KEY is not Alipay's RSA public key/);
    refuse({ ALIPAY_SELLER_ID: '12345' }, /ALIPAY_SELLER_ID is the merchant's PID/);
    refuse({ ALIPAY_GATEWAY: 'http://gateway.example.com/gateway.do' }, /ALIPAY_GATEWAY must be an https/);
    refuse(
      { ALIPAY_PRIVATE_KEY_FILE: '/nonexistent/key.pem' },
      /set ALIPAY_PRIVATE_KEY or ALIPAY_PRIVATE_KEY_FILE, not both/,
    );
  });

  it('reads keys from files, as PEM or as the bare base64 Alipay’s key tool shows, PKCS#1 or PKCS#8', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-pay-'));
    const bare = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');
    const pkcs1 = bare(createPrivateKey(app.privateKey).export({ type: 'pkcs1', format: 'pem' }).toString());
    fs.writeFileSync(path.join(dir, 'app.key'), pkcs1);
    fs.writeFileSync(path.join(dir, 'alipay.pub'), bare(alipay.publicKey));
    const config = loadConfig({
      ...base,
      ALIPAY_APP_ID: '2021000000000001',
      ALIPAY_PRIVATE_KEY_FILE: path.join(dir, 'app.key'),
      ALIPAY_PUBLIC_KEY_FILE: path.join(dir, 'alipay.pub'),
      ALIPAY_GATEWAY: 'https://openapi-sandbox.dl.alipaydev.com/gateway.do',
    });
    expect(config.alipay).toMatchObject({ appId: '2021000000000001', sellerId: undefined });
    expect(config.alipay!.privateKey).toBe(app.privateKey);
    expect(config.alipay!.alipayPublicKey).toBe(alipay.publicKey);
    expect(loadConfig({ ...base, PAYMENT_PROVIDER: 'none' }).alipay).toBeUndefined();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
