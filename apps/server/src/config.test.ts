import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('payment provider configuration (issue 13 item 7)', () => {
  it('runs the sandbox outside production (the demo and the tests) unless told otherwise', () => {
    expect(loadConfig({}).paymentProvider).toBe('sandbox');
    expect(loadConfig({ NODE_ENV: 'test' }).paymentProvider).toBe('sandbox');
    expect(loadConfig({ PAYMENT_PROVIDER: 'none' }).paymentProvider).toBe('none');
  });

  it('has no scan-to-pay provider in production by default', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).paymentProvider).toBe('none');
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'none' }).paymentProvider).toBe('none');
  });

  it('refuses to start the sandbox with NODE_ENV=production unless the flag says so', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' })).toThrow(
      /PAYMENT_PROVIDER=sandbox .*NODE_ENV=production.*PAYMENT_SANDBOX_IN_PRODUCTION=true/,
    );
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'sandbox',
        PAYMENT_SANDBOX_IN_PRODUCTION: 'false',
      }),
    ).toThrow(/PAYMENT_SANDBOX_IN_PRODUCTION/);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'sandbox',
        PAYMENT_SANDBOX_IN_PRODUCTION: 'true',
      }).paymentProvider,
    ).toBe('sandbox');
  });

  it('refuses an unknown provider with a message naming the variable', () => {
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'wechat' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ PAYMENT_SANDBOX_IN_PRODUCTION: 'yes' })).toThrow(
      /PAYMENT_SANDBOX_IN_PRODUCTION/,
    );
  });
});
