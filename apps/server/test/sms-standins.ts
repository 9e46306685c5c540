import { createHash, createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins of the SMS providers' HTTP APIs for the tests (127.0.0.1, ephemeral port). Each checks
 * a request the way the provider documents it — its own computation of the signature, not the SDK's —
 * and answers like the provider: success, or the error the test queued.
 */

/** What a stand-in received, once the signature and the documented parameters checked out. */
export interface SentSms {
  phone: string;
  signName: string;
  templateId: string;
  /** Aliyun: the TemplateParam object; Tencent: the TemplateParamSet list. */
  params: unknown;
}

/**
 * A queued answer for the next request: an error code (Tencent: per number in SendStatusSet, or with
 * `request` for the whole request, Response.Error), or 'hang' (never answer).
 */
export type StandInReply = { code: string; message?: string; request?: boolean } | 'hang';

export interface StandIn {
  /** host:port for SMS_TEST_ENDPOINT. */
  endpoint: string;
  sent: SentSms[];
  /** Requests refused for a bad signature or malformed parameters, with the reason. */
  rejected: string[];
  next(reply: StandInReply): void;
  close(): Promise<void>;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as both providers' canonical requests use it (space %20, `*` %2A, `~` kept). */
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

async function start(
  handle: (req: http.IncomingMessage, body: Buffer) => { status: number; body: unknown } | 'hang',
) {
  const hanging = new Set<http.ServerResponse>();
  const state = { sent: [] as SentSms[], rejected: [] as string[], queue: [] as StandInReply[] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = handle(req, Buffer.concat(chunks));
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json;charset=utf-8' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    standIn: (): StandIn => ({
      endpoint: `127.0.0.1:${port}`,
      sent: state.sent,
      rejected: state.rejected,
      next: (reply) => void state.queue.push(reply),
      close: async () => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    }),
  };
}

/**
 * Aliyun Dysmsapi (2017-05-25) SendSms, RPC style, signed with ACS3-HMAC-SHA256 (the V3 signature:
 * canonical request = method, path, sorted RFC 3986 query, the signed headers, the payload's SHA-256).
 */
export async function startAliyunStandIn(key: { id: string; secret: string }): Promise<StandIn> {
  const { state, standIn } = await start((req, body) => {
    const requestId = randomUUID().toUpperCase();
    const refuse = (code: string, message: string) => {
      state.rejected.push(`${code}: ${message}`);
      return { status: 400, body: { RequestId: requestId, Code: code, Message: message } };
    };
    const url = new URL(req.url ?? '/', 'http://stand-in');
    // Decode the raw query ourselves ('+' is not a space here).
    const query = new Map<string, string>();
    for (const part of url.search.slice(1).split('&').filter(Boolean)) {
      const [k, v = ''] = part.split('=');
      query.set(decodeURIComponent(k!), decodeURIComponent(v));
    }
    const auth = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(
      String(req.headers.authorization ?? ''),
    );
    if (!auth) return refuse('IncompleteSignature', 'Authorization is not ACS3-HMAC-SHA256');
    if (auth[1] !== key.id)
      return refuse('InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    const signed = auth[2]!.split(';');
    for (const h of ['host', 'x-acs-action', 'x-acs-version', 'x-acs-date', 'x-acs-signature-nonce'])
      if (!signed.includes(h)) return refuse('IncompleteSignature', `${h} is not signed`);
    if (req.method !== 'POST' || url.pathname !== '/') return refuse('InvalidAction', 'POST / expected');
    if (req.headers['x-acs-content-sha256'] !== sha256(body))
      return refuse('IncompleteSignature', 'x-acs-content-sha256 does not match the body');
    const canonicalQuery = [...query.keys()]
      .sort()
      .map((k) => `${rfc3986(k)}=${rfc3986(query.get(k)!)}`)
      .join('&');
    const canonicalHeaders = [...signed]
      .sort()
      .map((h) => `${h}:${String(req.headers[h] ?? '').trim()}\n`)
      .join('');
    const canonical = ['POST', '/', canonicalQuery, canonicalHeaders, signed.join(';'), sha256(body)].join(
      '\n',
    );
    const expected = hmac(key.secret, `ACS3-HMAC-SHA256\n${sha256(canonical)}`).toString('hex');
    if (expected !== auth[3]) return refuse('SignatureDoesNotMatch', 'Specified signature is not matched.');
    const date = Date.parse(String(req.headers['x-acs-date']));
    if (!(Math.abs(Date.now() - date) < 15 * 60_000)) return refuse('InvalidTimeStamp.Expired', 'x-acs-date');
    if (req.headers['x-acs-action'] !== 'SendSms' || req.headers['x-acs-version'] !== '2017-05-25')
      return refuse('InvalidAction.NotFound', 'SendSms 2017-05-25 expected');
    const phone = query.get('PhoneNumbers') ?? '';
    const signName = query.get('SignName') ?? '';
    const templateId = query.get('TemplateCode') ?? '';
    let params: unknown;
    try {
      params = JSON.parse(query.get('TemplateParam') ?? '');
    } catch {
      return refuse('isv.INVALID_JSON_PARAM', 'TemplateParam is not JSON');
    }
    if (!phone || !signName || !templateId) return refuse('MissingParameter', 'phone, sign or template');
    const reply = state.queue.shift();
    if (reply === 'hang') return 'hang';
    if (reply)
      return {
        status: 200,
        body: { RequestId: requestId, Code: reply.code, Message: reply.message ?? reply.code },
      };
    state.sent.push({ phone, signName, templateId, params });
    return {
      status: 200,
      body: { RequestId: requestId, Code: 'OK', Message: 'OK', BizId: `${Date.now()}^0` },
    };
  });
  return standIn();
}

/**
 * Tencent Cloud SMS SendSms (API 2021-01-11): JSON POST to sms.tencentcloudapi.com signed with
 * TC3-HMAC-SHA256 (credential scope date/sms/tc3_request; signing key derived from "TC3" + SecretKey).
 */
export async function startTencentStandIn(key: {
  id: string;
  secret: string;
  sdkAppId: string;
  region: string;
}): Promise<StandIn> {
  const { state, standIn } = await start((req, raw) => {
    const requestId = randomUUID();
    const error = (code: string, message: string) => ({
      status: 200,
      body: { Response: { Error: { Code: code, Message: message }, RequestId: requestId } },
    });
    const refuse = (code: string, message: string) => {
      state.rejected.push(`${code}: ${message}`);
      return error(code, message);
    };
    const auth =
      /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([a-z]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
        String(req.headers.authorization ?? ''),
      );
    if (!auth) return refuse('AuthFailure.InvalidAuthorization', 'Authorization is not TC3-HMAC-SHA256');
    const [, secretId, date, service, signedList, signature] = auth;
    if (secretId !== key.id) return refuse('AuthFailure.SecretIdNotFound', 'The SecretId is not found');
    if (req.headers.host !== 'sms.tencentcloudapi.com' || service !== 'sms')
      return refuse('AuthFailure.InvalidAuthorization', `host ${req.headers.host}, service ${service}`);
    const timestamp = Number(req.headers['x-tc-timestamp']);
    if (!(Math.abs(Date.now() / 1000 - timestamp) < 300))
      return refuse('AuthFailure.SignatureExpire', 'time');
    if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date)
      return refuse('AuthFailure.SignatureFailure', 'credential date is not the timestamp date');
    const signed = signedList!.split(';');
    if (!signed.includes('host') || !signed.includes('content-type'))
      return refuse('AuthFailure.SignatureFailure', 'host and content-type must be signed');
    const canonicalHeaders = signed
      .map(
        (h) =>
          `${h}:${String(req.headers[h] ?? '')
            .trim()
            .toLowerCase()}\n`,
      )
      .join('');
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const canonical = [
      req.method,
      url.pathname,
      url.search.slice(1),
      canonicalHeaders,
      signedList,
      sha256(raw),
    ].join('\n');
    const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${sha256(canonical)}`;
    const signingKey = hmac(hmac(hmac(`TC3${key.secret}`, date), service), 'tc3_request');
    if (createHmac('sha256', signingKey).update(toSign).digest('hex') !== signature)
      return refuse('AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
    if (req.headers['x-tc-action'] !== 'SendSms' || req.headers['x-tc-version'] !== '2021-01-11')
      return refuse('InvalidAction', 'SendSms 2021-01-11 expected');
    if (req.headers['x-tc-region'] !== key.region) return refuse('InvalidParameterValue', 'region');
    const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    const phones = body.PhoneNumberSet as string[] | undefined;
    if (body.SmsSdkAppId !== key.sdkAppId)
      return refuse('InvalidParameterValue.SdkAppIdNotExist', 'SmsSdkAppId does not exist');
    if (!Array.isArray(phones) || phones.length !== 1 || typeof body.TemplateId !== 'string')
      return refuse('MissingParameter', 'PhoneNumberSet, TemplateId');
    const reply = state.queue.shift();
    if (reply === 'hang') return 'hang';
    const status = (code: string, message: string) => ({
      status: 200,
      body: {
        Response: {
          SendStatusSet: [
            {
              SerialNo: requestId,
              PhoneNumber: phones[0],
              Fee: 1,
              SessionContext: '',
              Code: code,
              Message: message,
              IsoCode: 'CN',
            },
          ],
          RequestId: requestId,
        },
      },
    });
    // Whole-request errors (RequestLimitExceeded…) come as Response.Error, per-number ones in the set.
    if (reply?.request) return error(reply.code, reply.message ?? reply.code);
    if (reply) return status(reply.code, reply.message ?? reply.code);
    state.sent.push({
      phone: phones[0]!,
      signName: String(body.SignName),
      templateId: body.TemplateId,
      params: body.TemplateParamSet,
    });
    return status('Ok', 'send success');
  });
  return standIn();
}
