import { createHmac } from 'node:crypto';
import type { Config } from '../../config.ts';
import { AlipayPaymentProvider } from './alipay.ts';
import { SandboxPaymentProvider, type PaymentProvider } from './payment.ts';
import { WechatPayProvider } from './wechat-pay.ts';

/**
 * The live scan-to-pay provider chosen by PAYMENT_PROVIDER (docs/payments.md): the sandbox (its secret
 * from PAYMENT_SANDBOX_SECRET or derived from the session secret), Alipay face-to-face, WeChat Pay
 * Native (API v3), or none (cash at
 * the desk only). The configuration was checked when it was loaded.
 */
export function createPaymentProvider(config: Config, sessionSecret: string): PaymentProvider | undefined {
  switch (config.paymentProvider) {
    case 'sandbox':
      return new SandboxPaymentProvider(
        config.paymentSandboxSecret ??
          createHmac('sha256', sessionSecret).update('payment-sandbox').digest('hex'),
      );
    case 'alipay':
      return new AlipayPaymentProvider(config.alipay!);
    case 'wechat':
      return new WechatPayProvider(config.wechat!);
    case 'none':
      return undefined;
  }
}

/** The start-up line naming the live provider (never a secret). */
export const PROVIDER_BANNER: Record<Config['paymentProvider'], string> = {
  sandbox: '扫码支付：沙箱（PAYMENT_PROVIDER=sandbox，不收款，仅供演示与测试）',
  none: '扫码支付：未开通（PAYMENT_PROVIDER=none，打印订单只收现金）',
  alipay: '扫码支付：支付宝当面付（PAYMENT_PROVIDER=alipay）',
  wechat: '扫码支付：微信支付 Native（PAYMENT_PROVIDER=wechat）',
};
