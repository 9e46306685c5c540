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

describe('storage configuration (issue 17 part 1)', () => {
  it('reads with the own column recogniser unless OCR_RECOGNISER chooses PP-OCRv4, and refuses another', () => {
    expect(loadConfig({}).ocrRecogniser).toBe('own');
    expect(loadConfig({ OCR_RECOGNISER: 'ppocrv4' }).ocrRecogniser).toBe('ppocrv4');
    expect(() => loadConfig({ OCR_RECOGNISER: 'tesseract' })).toThrow(/OCR_RECOGNISER/);
  });

  it('keeps files on local disk unless STORAGE_URL names an object store', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'local' });
    expect(loadConfig({ STORAGE_URL: 'local' }).storage).toEqual({ kind: 'local' });
  });

  it('reads the bucket and prefix from STORAGE_URL and the rest from the usual AWS variables', () => {
    expect(
      loadConfig({
        STORAGE_URL: 's3://guji-library/site-a/',
        AWS_ENDPOINT_URL: 'http://127.0.0.1:9000',
        AWS_REGION: 'cn-north-1',
        AWS_ACCESS_KEY_ID: 'id',
        AWS_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'guji-library',
      prefix: 'site-a/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'cn-north-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    // The S3-only endpoint wins over the general one; no prefix, no credentials (the SDK's own chain).
    expect(
      loadConfig({
        STORAGE_URL: 's3://guji-library',
        AWS_ENDPOINT_URL: 'http://a.example',
        AWS_ENDPOINT_URL_S3: 'http://s3.example',
      }).storage,
    ).toMatchObject({
      prefix: '',
      endpoint: 'http://s3.example',
      region: 'us-east-1',
      credentials: undefined,
    });
  });

  it('refuses a malformed STORAGE_URL or half the credentials with a message naming the variable', () => {
    for (const url of ['s3:/bucket', 'file:///data', 's3://B', 's3://Upper-Case', 's3://bucket/../x'])
      expect(() => loadConfig({ STORAGE_URL: url })).toThrow(/STORAGE_URL/);
    expect(() => loadConfig({ STORAGE_URL: 's3://guji-library', AWS_ACCESS_KEY_ID: 'id' })).toThrow(
      /AWS_SECRET_ACCESS_KEY/,
    );
    expect(() => loadConfig({ STORAGE_URL: 's3://guji-library', AWS_ENDPOINT_URL: 'not a url' })).toThrow(
      /AWS_ENDPOINT_URL/,
    );
  });
});
