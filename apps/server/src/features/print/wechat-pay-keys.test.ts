import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config.ts';
import { configError } from '../../../test/helpers.ts';
import {
  certifiedKey,
  forgedSigner,
  WechatPayStandIn,
  type WechatNotice,
  type WechatSigner,
} from '../../../test/wechat-pay-stand-in.ts';
import { wechatConfigOf } from '../../config/payment.ts';
import { WechatPayProvider } from './wechat-pay.ts';
import { APP_ID, certificateCalls, envOf, MCH_ID, ORIGIN } from '../../../test/wechat-pay-fixture.ts';

/** Issue 18 part 5: WeChat Pay's platform keys and its configuration. */
describe('WeChat Pay platform keys', () => {
  let merchant: WechatSigner;
  beforeAll(() => {
    merchant = certifiedKey(`${MCH_ID} merchant API certificate`);
  });
  const trade = (wechatProvider: WechatPayProvider) => {
    const tradeNo = randomBytes(12).toString('hex');
    return wechatProvider
      .createTrade({ tradeNo, amountFen: 120, subject: '古籍数字图书馆 打印订单', origin: ORIGIN })
      .then(() => tradeNo);
  };
  const verify = (provider: WechatPayProvider, notice: WechatNotice) =>
    provider.verifyNotice(JSON.parse(notice.raw), notice.raw, notice.headers);

  it('a rotated platform certificate is fetched when its serial first appears, at most once a minute', async () => {
    const wechat = await new WechatPayStandIn(APP_ID, MCH_ID, merchant).start();
    try {
      let clock = Date.now();
      const provider = new WechatPayProvider(wechatConfigOf(envOf(merchant, wechat)), { now: () => clock });
      const tradeNo = await trade(provider);
      expect(certificateCalls(wechat)).toBe(1);
      const old = wechat.signer;
      wechat.publish(true);
      const notice = wechat.pay(tradeNo);
      expect(verify(provider, notice)).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(certificateCalls(wechat)).toBe(1);
      clock += 61_000;
      expect(verify(provider, notice)).toBeUndefined();
      await vi.waitFor(() =>
        expect(verify(provider, notice)).toMatchObject({ tradeNo, amountFen: 120, paid: true }),
      );
      expect(certificateCalls(wechat)).toBe(2);
      // The earlier certificate is still published and still verifies.
      expect(verify(provider, wechat.notice(tradeNo, { signWith: old }))).toMatchObject({ paid: true });
      expect(wechat.problems).toEqual([]);
    } finally {
      await wechat.close();
    }
  });

  it('with WeChat Pay’s public key configured, answers and notices are verified with it', async () => {
    const publicKeyId = `PUB_KEY_ID_${'0'.repeat(10)}${Date.now()}`;
    const wechat = await new WechatPayStandIn(APP_ID, MCH_ID, merchant, { publicKeyId }).start();
    try {
      const provider = new WechatPayProvider(
        wechatConfigOf({
          ...envOf(merchant, wechat),
          WECHATPAY_PUBLIC_KEY: wechat.signer.publicKey,
          WECHATPAY_PUBLIC_KEY_ID: publicKeyId,
        }),
      );
      const tradeNo = await trade(provider);
      const notice = wechat.pay(tradeNo);
      expect(notice.headers['wechatpay-serial']).toBe(publicKeyId);
      expect(verify(provider, notice)).toEqual({
        noticeId: `wechat:${notice.id}`,
        tradeNo,
        amountFen: 120,
        paid: true,
      });
      expect(
        verify(provider, wechat.notice(tradeNo, { signWith: forgedSigner(publicKeyId) })),
      ).toBeUndefined();
      expect(certificateCalls(wechat)).toBe(0);
      expect(wechat.problems).toEqual([]);
    } finally {
      await wechat.close();
    }
  });
});

/** PAYMENT_PROVIDER=wechat refuses to start without its configuration, with a clear message. */
describe('WeChat Pay configuration', () => {
  let merchant: WechatSigner;
  const apiV3Key = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6';
  const base = { DATA_DIR: os.tmpdir(), PAYMENT_PROVIDER: 'wechat' };
  let good: Record<string, string>;
  beforeAll(() => {
    merchant = certifiedKey(`${MCH_ID} merchant API certificate`);
    good = {
      ...base,
      WECHATPAY_APP_ID: APP_ID,
      WECHATPAY_MCH_ID: MCH_ID,
      WECHATPAY_PRIVATE_KEY: merchant.privateKey,
      WECHATPAY_CERT_SERIAL: merchant.serial.toLowerCase(),
      WECHATPAY_API_V3_KEY: apiV3Key,
    };
  });

  it('names every missing variable', () => {
    expect(() => loadConfig(base)).toThrow(
      'Invalid configuration: PAYMENT_PROVIDER=wechat needs WECHATPAY_APP_ID, WECHATPAY_MCH_ID, WECHATPAY_PRIVATE_KEY (or WECHATPAY_PRIVATE_KEY_FILE), WECHATPAY_CERT_SERIAL, WECHATPAY_API_V3_KEY (or WECHATPAY_API_V3_KEY_FILE) (see docs/payments.md)',
    );
    expect(() => loadConfig({ ...good, WECHATPAY_API_V3_KEY: ' ' })).toThrow(/needs WECHATPAY_API_V3_KEY/);
  });

  it('refuses malformed values without showing a secret', () => {
    const refuse = (env: Record<string, string>, message: RegExp) => {
      const error = configError({ ...good, ...env });
      expect(error).toMatch(message);
      expect(error).toMatch(/^Invalid configuration: /);
      expect(error).not.toContain('MII');
      expect(error).not.toContain(apiV3Key.slice(0, 8));
    };
    refuse({ WECHATPAY_APP_ID: '2021000000000001' }, /WECHATPAY_APP_ID is an APPID/);
    refuse({ WECHATPAY_MCH_ID: 'mch-1' }, /WECHATPAY_MCH_ID is the merchant number/);
    refuse(
      { WECHATPAY_CERT_SERIAL: 'not-a-serial' },
      /WECHATPAY_CERT_SERIAL is the merchant API certificate's serial/,
    );
    refuse(
      { WECHATPAY_API_V3_KEY: `${apiV3Key}x` },
      /WECHATPAY_API_V3_KEY must be the 32-character APIv3 key/,
    );
    refuse({ WECHATPAY_PRIVATE_KEY: 'not a key' }, /WECHATPAY_PRIVATE_KEY is not an RSA private key/);
    refuse({ WECHATPAY_PRIVATE_KEY: merchant.publicKey }, /WECHATPAY_PRIVATE_KEY is not an RSA private key/);
    refuse(
      { WECHATPAY_PRIVATE_KEY_FILE: '/nonexistent/key.pem' },
      /set WECHATPAY_PRIVATE_KEY or WECHATPAY_PRIVATE_KEY_FILE, not both/,
    );
    refuse({ WECHATPAY_GATEWAY: 'http://api.example.com' }, /WECHATPAY_GATEWAY must be an https/);
    refuse({ WECHATPAY_GATEWAY: 'https://api.example.com/v3' }, /WECHATPAY_GATEWAY is the API's origin/);
    refuse(
      { WECHATPAY_PUBLIC_KEY: merchant.publicKey },
      /WECHATPAY_PUBLIC_KEY .* and WECHATPAY_PUBLIC_KEY_ID go together/,
    );
    refuse(
      { WECHATPAY_PUBLIC_KEY: merchant.publicKey, WECHATPAY_PUBLIC_KEY_ID: 'KEY1' },
      /WECHATPAY_PUBLIC_KEY_ID is WeChat Pay's public key id/,
    );
    refuse(
      { WECHATPAY_PUBLIC_KEY: 'MIIB', WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0001' },
      /WECHATPAY_PUBLIC_KEY is not WeChat Pay's RSA public key/,
    );
  });

  it('reads the key and the APIv3 key from files; the gateway is WeChat’s own by default', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-wxpay-'));
    fs.writeFileSync(path.join(dir, 'apiclient_key.pem'), merchant.privateKey);
    fs.writeFileSync(path.join(dir, 'apiv3.key'), `${apiV3Key}\n`);
    const config = loadConfig({
      ...base,
      WECHATPAY_APP_ID: APP_ID,
      WECHATPAY_MCH_ID: MCH_ID,
      WECHATPAY_PRIVATE_KEY_FILE: path.join(dir, 'apiclient_key.pem'),
      WECHATPAY_API_V3_KEY_FILE: path.join(dir, 'apiv3.key'),
      WECHATPAY_CERT_SERIAL: merchant.serial.toLowerCase(),
    });
    expect(config.wechat).toEqual({
      appId: APP_ID,
      mchId: MCH_ID,
      privateKey: merchant.privateKey,
      certSerial: merchant.serial,
      apiV3Key,
      gateway: 'https://api.mch.weixin.qq.com',
      publicKey: undefined,
    });
    expect(config.alipay).toBeUndefined();
    expect(loadConfig({ ...base, PAYMENT_PROVIDER: 'none' }).wechat).toBeUndefined();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
