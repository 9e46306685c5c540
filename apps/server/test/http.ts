import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { createTestContext, type TestContext } from './helpers.ts';
import type { Dialect } from '../src/db/database.ts';
import type { ContextOverrides } from '../src/context.ts';

export interface HttpHarness extends TestContext {
  app: FastifyInstance;
  /** Every response body this harness has seen, for leak checks. */
  bodies: string[];
  request(options: {
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
    url: string;
    body?: unknown;
    cookie?: string;
    headers?: Record<string, string>;
    payload?: Buffer;
    remoteAddress?: string;
  }): Promise<LightMyRequestResponse>;
  captcha(): Promise<{ captchaId: string; captchaCode: string }>;
  /** Sends a code through the API and reads it from the development outbox. */
  smsCode(phone: string, purpose: 'register' | 'reset' | 'profile', cookie?: string): Promise<string>;
  register(
    fields: Partial<RegisterFields> & { loginName: string; phone: string },
  ): Promise<LightMyRequestResponse>;
  login(loginName: string, password: string): Promise<{ response: LightMyRequestResponse; cookie: string }>;
}

export interface RegisterFields {
  post: string;
  loginName: string;
  realName: string;
  idCard: string;
  phone: string;
  phoneCode: string;
  loginPassword: string;
  email: string;
  address: string;
}

/** A valid ID card number (checked digit) for tests. */
export const VALID_ID_CARD = '11010519491231002X';
export const GOOD_PASSWORD = 'Guji#2026ok';

/** Starts an app on a fresh database with an HTTP harness (app.inject; nothing listens). */
export async function createHttpHarness(
  dialect: Dialect = 'sqlite',
  env: Record<string, string> = {},
  overrides: ContextOverrides = {},
  options: { postgresAdminUrl?: string; runWorker?: boolean } = {},
): Promise<HttpHarness> {
  const t = await createTestContext(
    dialect,
    { AUTH_RATE_LIMIT_PER_MINUTE: '1000', ...env },
    overrides,
    options.postgresAdminUrl,
  );
  const app = await buildApp(t.context, { logger: false, runWorker: options.runWorker ?? false });
  await app.ready();
  const bodies: string[] = [];
  const harness: HttpHarness = {
    ...t,
    app,
    bodies,
    async request({ method, url, body, cookie, headers, payload, remoteAddress }) {
      const response = await app.inject({
        method,
        url,
        ...(remoteAddress ? { remoteAddress } : {}),
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(payload ? { payload } : body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      bodies.push(response.body + JSON.stringify(response.headers));
      return response;
    },
    async captcha() {
      const created = await t.context.services.captcha.create();
      return { captchaId: created.captchaId, captchaCode: created.answer };
    },
    async smsCode(phone, purpose, cookie) {
      const response = await harness.request({
        method: 'POST',
        url: '/api/sms/send',
        body: { phone, purpose, ...(await harness.captcha()) },
        ...(cookie ? { cookie } : {}),
      });
      if (response.statusCode !== 200) throw new Error(`send code failed: ${response.body}`);
      const [latest] = await t.context.repos.sms.listOutbox(phone, 1);
      const code = /验证码为 (\d{6})/.exec(latest?.text ?? '')?.[1];
      if (!code) throw new Error('no code in the outbox');
      return code;
    },
    async register(fields) {
      const phoneCode = fields.phoneCode ?? (await harness.smsCode(fields.phone, 'register'));
      return harness.request({
        method: 'POST',
        url: '/api/auth/register',
        body: {
          post: '国家图书馆',
          realName: '张三',
          idCard: VALID_ID_CARD,
          loginPassword: GOOD_PASSWORD,
          email: 'reader@example.com',
          address: '北京市',
          ...fields,
          phoneCode,
        },
      });
    },
    async login(loginName, password) {
      const response = await harness.request({
        method: 'POST',
        url: '/api/auth/login',
        body: { loginName, password, ...(await harness.captcha()) },
      });
      return { response, cookie: sessionCookie(response) };
    },
    close: async () => {
      await app.close();
      await t.close();
    },
  };
  return harness;
}

/** The `name=value` of the session cookie a response set, or '' when none. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'guji_session');
  return cookie && cookie.value ? `guji_session=${cookie.value}` : '';
}

/** A multipart/form-data body with one file field. */
export function multipartFile(
  field: string,
  filename: string,
  data: Buffer,
  type = 'application/octet-stream',
) {
  return multipartFiles(field, [[filename, data]], type);
}

/** A multipart body of several files under one field name. */
export function multipartFiles(field: string, files: Array<[string, Buffer]>, type = 'image/png') {
  const boundary = `----guji${Date.now()}`;
  const parts = files.map(([filename, data]) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      data,
      Buffer.from('\r\n'),
    ]),
  );
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Posts a multipart body (from multipartFile / multipartFiles) as the user of a session cookie. */
export function postForm(
  h: HttpHarness,
  url: string,
  cookie: string,
  form: { payload: Buffer; contentType: string },
): Promise<LightMyRequestResponse> {
  return h.request({
    method: 'POST',
    url,
    cookie,
    headers: { 'content-type': form.contentType },
    payload: form.payload,
  });
}

/** A new own book of the user of a session cookie, with one empty volume named 卷一; their ids. */
export async function createOwnVolume(
  h: HttpHarness,
  cookie: string,
  book: { title: string; actualVolume: number; author: string; publishDynasty: string; editionType: string },
): Promise<{ bookId: number; volumeId: number }> {
  const created = (await h.request({ method: 'POST', url: '/api/own/books', body: book, cookie })).json<{
    catalogId: number;
  }>();
  await h.request({
    method: 'POST',
    url: `/api/own/books/${created.catalogId}/volumes`,
    body: { name: '卷一' },
    cookie,
  });
  const [volume] = (
    await h.request({ method: 'GET', url: `/api/own/books/${created.catalogId}/volumes`, cookie })
  ).json<Array<{ fascicleId: number }>>();
  return { bookId: created.catalogId, volumeId: volume!.fascicleId };
}
