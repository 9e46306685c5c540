import type { WechatPayStandIn, WechatSigner } from './wechat-pay-stand-in.ts';

/** The merchant of the WeChat Pay tests (wechat-pay*.test.ts): its APPID and merchant number, the site. */
export const APP_ID = 'wxd678efh567hg6787';
export const MCH_ID = '1900009191';
export const ORIGIN = 'https://guji.example.org';

/** The merchant's environment for a stand-in: its API key and certificate serial, the APIv3 key. */
export const envOf = (merchant: WechatSigner, wechat: WechatPayStandIn): Record<string, string> => ({
  PAYMENT_PROVIDER: 'wechat',
  WECHATPAY_APP_ID: APP_ID,
  WECHATPAY_MCH_ID: MCH_ID,
  WECHATPAY_PRIVATE_KEY: merchant.privateKey,
  WECHATPAY_CERT_SERIAL: merchant.serial,
  WECHATPAY_API_V3_KEY: wechat.apiV3Key,
  WECHATPAY_GATEWAY: wechat.gateway,
});

export const certificateCalls = (wechat: WechatPayStandIn) =>
  wechat.calls.filter((c) => c.path === '/v3/certificates').length;
