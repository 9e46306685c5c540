import path from 'node:path';
import { z } from 'zod';
import type { S3StorageOptions } from './storage/s3-storage.ts';
import { smsConfigOf, type SmsConfig } from './config/sms.ts';
import { alipayConfigOf, wechatConfigOf, type AlipayConfig, type WechatPayConfig } from './config/payment.ts';

/**
 * All configuration, read from the environment in this one module (STYLE.md: no process.env elsewhere).
 * Every variable is documented in docs/configuration.md.
 */
/** pino's levels, for LOG_LEVEL and IMAGE_LOG_LEVEL. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  STORAGE_URL: z.string().optional(),
  AWS_ENDPOINT_URL_S3: z.string().url().optional(),
  AWS_ENDPOINT_URL: z.string().url().optional(),
  AWS_REGION: z.string().optional(),
  AWS_DEFAULT_REGION: z.string().optional(),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  SESSION_SECRET: z.string().optional(),
  PAYMENT_SANDBOX_SECRET: z.string().optional(),
  PAYMENT_PROVIDER: z.enum(['sandbox', 'none', 'alipay', 'wechat']).optional(),
  ALIPAY_APP_ID: z.string().optional(),
  ALIPAY_PRIVATE_KEY: z.string().optional(),
  ALIPAY_PRIVATE_KEY_FILE: z.string().optional(),
  ALIPAY_PUBLIC_KEY: z.string().optional(),
  ALIPAY_PUBLIC_KEY_FILE: z.string().optional(),
  ALIPAY_SELLER_ID: z.string().optional(),
  ALIPAY_GATEWAY: z.string().optional(),
  WECHATPAY_APP_ID: z.string().optional(),
  WECHATPAY_MCH_ID: z.string().optional(),
  WECHATPAY_PRIVATE_KEY: z.string().optional(),
  WECHATPAY_PRIVATE_KEY_FILE: z.string().optional(),
  WECHATPAY_CERT_SERIAL: z.string().optional(),
  WECHATPAY_API_V3_KEY: z.string().optional(),
  WECHATPAY_API_V3_KEY_FILE: z.string().optional(),
  WECHATPAY_PUBLIC_KEY: z.string().optional(),
  WECHATPAY_PUBLIC_KEY_FILE: z.string().optional(),
  WECHATPAY_PUBLIC_KEY_ID: z.string().optional(),
  WECHATPAY_GATEWAY: z.string().optional(),
  PAYMENT_SANDBOX_IN_PRODUCTION: z.enum(['true', 'false']).default('false'),
  PRINT_NOTIFY_WEBHOOK_URL: z.string().url().optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  COOKIE_SECURE: z.enum(['true', 'false', 'auto']).default('auto'),
  READING_ROOM_CIDRS: z.string().default('127.0.0.1/32,::1/128'),
  TRUST_PROXY: z.string().default('false'),
  SSO_SECRET: z.string().optional(),
  METRICS_TOKEN: z.string().optional(),
  PUBLIC_ORIGIN: z.string().optional(),
  PUBLIC_HOSTS: z.string().default(''),
  IIIF_VIEWER_ORIGINS: z.string().default(''),
  OAI_REPOSITORY_ID: z
    .string()
    .regex(/^[a-zA-Z][a-zA-Z0-9-]*(\.[a-zA-Z][a-zA-Z0-9-]*)+$/, 'a domain name such as guji.example.org')
    .optional(),
  OAI_ADMIN_EMAIL: z.string().email().optional(),
  OAI_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
  IIIF_CACHE_MAX_MB: z.coerce.number().int().min(0).optional(),
  IIIF_RENDER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(60),
  IIIF_RENDER_CONCURRENCY: z.coerce.number().int().positive().default(2),
  IIIF_RENDER_QUEUE: z.coerce.number().int().min(0).default(16),
  JOBS_IN_PROCESS: z.enum(['true', 'false']).default('true'),
  JOB_LEASE_SECONDS: z.coerce.number().positive().default(600),
  DEMO_LIBRARY: z.enum(['true', 'false']).default('true'),
  OCR_ON_INGEST: z.enum(['true', 'false']).default('true'),
  OCR_RECOGNISER: z.enum(['own', 'ppocrv4']).default('own'),
  UPLOAD_MAX_PIXELS: z.coerce.number().int().positive().default(60_000_000),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  IMAGE_LOG_LEVEL: z.enum(LOG_LEVELS).default('warn'),
  SMS_PROVIDER: z.enum(['outbox', 'aliyun', 'tencent']).default('outbox'),
  SMS_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(30).default(5),
  SMS_TEST_ENDPOINT: z.string().optional(),
  ALIBABA_CLOUD_ACCESS_KEY_ID: z.string().optional(),
  ALIBABA_CLOUD_ACCESS_KEY_SECRET: z.string().optional(),
  TENCENTCLOUD_SECRET_ID: z.string().optional(),
  TENCENTCLOUD_SECRET_KEY: z.string().optional(),
  TENCENTCLOUD_SMS_SDK_APP_ID: z.string().optional(),
  TENCENTCLOUD_SMS_REGION: z.string().default('ap-guangzhou'),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(20),
  CAPTCHA_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(60),
  PUBLIC_API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
  DOWNLOAD_PDF_CONCURRENCY: z.coerce.number().int().positive().max(64).default(2),
  WRITE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(20),
  PUBLIC_API_ANONYMOUS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  WEB_DIST: z.string().optional(),
  SITE_NAME: z.string().optional(),
  SITE_COPYRIGHT: z.string().optional(),
  SITE_FILING_NUMBER: z.string().optional(),
  SITE_FUNDING_NOTE: z.string().optional(),
  SITE_REQUIRE_REAL_NAME: z.enum(['true', 'false']).optional(),
  SITE_TIME_ZONE: z.string().optional(),
  NODE_ENV: z.string().default('development'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };
  /**
   * Where masters, pyramids, avatars and print PDFs are kept: local disk under DATA_DIR (default) or an
   * S3-compatible object store (STORAGE_URL=s3://bucket/prefix). The database, the IIIF cache and
   * temporary files stay in DATA_DIR either way.
   */
  storage: { kind: 'local' } | ({ kind: 's3' } & S3StorageOptions);
  /** Secret for signing; when unset a random one is generated and kept in DATA_DIR. */
  sessionSecret: string | undefined;
  /** Signs the sandbox payment provider's notices (default: derived from the session secret). */
  paymentSandboxSecret: string | undefined;
  /**
   * The live scan-to-pay provider: `sandbox` (no money moves; default outside production) or `none`
   * (cash at the desk only; default with NODE_ENV=production, where the sandbox needs
   * PAYMENT_SANDBOX_IN_PRODUCTION=true).
   */
  paymentProvider: 'sandbox' | 'none' | 'alipay' | 'wechat';
  /** Alipay face-to-face (PAYMENT_PROVIDER=alipay; docs/payments.md). */
  alipay: AlipayConfig | undefined;
  /** WeChat Pay Native, API v3 (PAYMENT_PROVIDER=wechat; docs/payments.md). */
  wechat: WechatPayConfig | undefined;
  /** Where print administrators are also told of paid orders (an enterprise messaging robot). */
  printNotifyWebhookUrl: string | undefined;
  sessionTtlMs: number;
  cookieSecure: 'true' | 'false' | 'auto';
  readingRoomCidrs: string[];
  /**
   * Fastify's `trustProxy`: false (default) ignores every X-Forwarded-* header; true trusts any sender;
   * a comma-separated list trusts those proxy addresses/CIDRs only (recommended). The CSRF origin
   * check, the client address (reading room, rate limits, login throttle) and Secure cookies follow it.
   */
  trustProxy: boolean | string;
  /** HMAC secret of single-sign-on links; SSO is off when unset. */
  ssoSecret: string | undefined;
  /** Bearer token of GET /metrics; without it the metrics are not served. */
  metricsToken: string | undefined;
  /** Extra origins accepted by the CSRF check besides the request's own host. */
  publicOrigin: string | undefined;
  /**
   * Host names (with port where not the scheme's default) whose request origin may appear in publicly
   * cached IIIF documents when PUBLIC_ORIGIN is unset; loopback names always may.
   */
  publicHosts: string[];
  /**
   * Origins of outside IIIF viewers (Mirador, Universal Viewer) allowed to open restricted books with
   * the reader's login: CORS with credentials, the token services' postMessage and framing (IIIF Auth).
   */
  iiifViewerOrigins: string[];
  /**
   * OAI-PMH (/oai): the repository identifier in record identifiers (`oai:<id>:<book id>`; default the host
   * of PUBLIC_ORIGIN, else of the request), the administrator's e-mail Identify names (default
   * postmaster@ that host, the address RFC 5321 requires every mail domain to have), records per page.
   */
  oai: { repositoryId: string | undefined; adminEmail: string | undefined; pageSize: number };
  /** Bound of the IIIF image disk cache in bytes; undefined: min(5 GiB, 10 % of the free disk). */
  iiifCacheMaxBytes: number | undefined;
  /** Render-heavy IIIF image requests (not a tile or listed size) per minute and client. */
  iiifRenderRateLimitPerMinute: number;
  /**
   * IIIF images rendered at once per process (stored tiles and cache hits never wait for them), and
   * how many more may wait; beyond that a render is answered 503 with Retry-After.
   */
  iiifRenderConcurrency: number;
  iiifRenderQueue: number;
  jobsInProcess: boolean;
  /**
   * How long a running job's worker may stay silent before another worker takes the job over (it died);
   * a live worker renews its lease every third of this while it works.
   */
  jobLeaseMs: number;
  /** Typeset and import the demo library when `serve` finds no books. */
  demoLibrary: boolean;
  /** Queue OCR for imported pages that come without text. */
  ocrOnIngest: boolean;
  /**
   * The OCR engine's recogniser: the project's own column model (default, the better on real pages) or
   * PP-OCRv4's line recogniser on cut cells. The engine's threads read it from the environment.
   */
  ocrRecogniser: 'own' | 'ppocrv4';
  /**
   * Largest image accepted from anyone (page scans, single images, zip and import pages), in pixels:
   * checked from the header and enforced by the decoder (sharp `limitInputPixels`).
   */
  uploadMaxPixels: number;
  logLevel: string;
  /**
   * The log level of IIIF image requests (tiles and regions): a page view makes dozens, and logging
   * each is a third of a cached tile's cost (issue 34); the proxy's access log has them.
   */
  imageLogLevel: LogLevel;
  smsProvider: SmsConfig['provider'];
  /** The SMS provider's credentials, timeout and (tests only) stand-in address; see docs/sms.md. */
  sms: SmsConfig;
  /** Requests per minute and address to login, registration, code and recovery endpoints. */
  authRateLimitPerMinute: number;
  /** New image captchas per minute and address (each login or registration form asks for one). */
  captchaRateLimitPerMinute: number;
  /** Public read API (/api/v1): requests a minute per personal API token, and per address without one. */
  publicApiRateLimitPerMinute: number;
  /** Volume PDFs built at once by one process (each holds its pages in memory); one per reader. */
  downloadPdfConcurrency: number;
  /** Comments, notes, reservations and proofreading saves a minute per user (per address without one). */
  writeRateLimitPerMinute: number;
  publicApiAnonymousRateLimitPerMinute: number;
  webDist: string;
  /** Initial site texts; administrators can change them later in the settings table. */
  siteDefaults: {
    siteName?: string;
    copyright?: string;
    filingNumber?: string;
    fundingNote?: string;
    requireRealName?: boolean;
    timeZone?: string;
  };
  production: boolean;
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Reads the configuration from an environment (process.env by default). Throws on invalid values. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const database = databaseOf(e.DATABASE_URL, dataDir);
  const storage = storageOf(e);
  const trust = e.TRUST_PROXY;
  const production = e.NODE_ENV === 'production';
  // The sandbox marks orders paid without any money: never live in production by accident.
  const paymentProvider = e.PAYMENT_PROVIDER ?? (production ? 'none' : 'sandbox');
  if (production && paymentProvider === 'sandbox' && e.PAYMENT_SANDBOX_IN_PRODUCTION !== 'true')
    throw new Error(
      'Invalid configuration: PAYMENT_PROVIDER=sandbox lets readers mark orders paid without paying and is refused with NODE_ENV=production; use PAYMENT_PROVIDER=none (cash at the desk), or set PAYMENT_SANDBOX_IN_PRODUCTION=true for a staging site',
    );
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    storage,
    sessionSecret: e.SESSION_SECRET,
    paymentSandboxSecret: e.PAYMENT_SANDBOX_SECRET,
    paymentProvider,
    alipay: paymentProvider === 'alipay' ? alipayConfigOf(e) : undefined,
    wechat: paymentProvider === 'wechat' ? wechatConfigOf(e) : undefined,
    printNotifyWebhookUrl: e.PRINT_NOTIFY_WEBHOOK_URL,
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    cookieSecure: e.COOKIE_SECURE,
    readingRoomCidrs: e.READING_ROOM_CIDRS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    trustProxy: trust === 'true' ? true : trust === 'false' || trust.trim() === '' ? false : trust,
    ssoSecret: e.SSO_SECRET || undefined,
    metricsToken: e.METRICS_TOKEN || undefined,
    publicOrigin: e.PUBLIC_ORIGIN,
    publicHosts: e.PUBLIC_HOSTS.split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    iiifViewerOrigins: parseViewerOrigins(e.IIIF_VIEWER_ORIGINS),
    oai: { repositoryId: e.OAI_REPOSITORY_ID, adminEmail: e.OAI_ADMIN_EMAIL, pageSize: e.OAI_PAGE_SIZE },
    iiifCacheMaxBytes: e.IIIF_CACHE_MAX_MB === undefined ? undefined : e.IIIF_CACHE_MAX_MB * 1024 * 1024,
    iiifRenderRateLimitPerMinute: e.IIIF_RENDER_RATE_LIMIT_PER_MINUTE,
    iiifRenderConcurrency: e.IIIF_RENDER_CONCURRENCY,
    iiifRenderQueue: e.IIIF_RENDER_QUEUE,
    jobsInProcess: e.JOBS_IN_PROCESS === 'true',
    jobLeaseMs: e.JOB_LEASE_SECONDS * 1000,
    demoLibrary: e.DEMO_LIBRARY === 'true',
    ocrOnIngest: e.OCR_ON_INGEST === 'true',
    ocrRecogniser: e.OCR_RECOGNISER,
    uploadMaxPixels: e.UPLOAD_MAX_PIXELS,
    logLevel: e.LOG_LEVEL,
    imageLogLevel: e.IMAGE_LOG_LEVEL,
    smsProvider: e.SMS_PROVIDER,
    sms: smsConfigOf(e),
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    captchaRateLimitPerMinute: e.CAPTCHA_RATE_LIMIT_PER_MINUTE,
    publicApiRateLimitPerMinute: e.PUBLIC_API_RATE_LIMIT_PER_MINUTE,
    downloadPdfConcurrency: e.DOWNLOAD_PDF_CONCURRENCY,
    writeRateLimitPerMinute: e.WRITE_RATE_LIMIT_PER_MINUTE,
    publicApiAnonymousRateLimitPerMinute: e.PUBLIC_API_ANONYMOUS_RATE_LIMIT_PER_MINUTE,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : path.join(repoRoot, 'apps/web/dist'),
    siteDefaults: siteDefaultsOf(e),
    production,
  };
}

/** DATABASE_URL as a database choice: PostgreSQL, a SQLite file, or the SQLite file in DATA_DIR. */
function databaseOf(url: string | undefined, dataDir: string): Config['database'] {
  if (url && /^postgres(ql)?:\/\//.test(url)) return { dialect: 'postgres', url };
  if (url && url.startsWith('sqlite:')) return { dialect: 'sqlite', file: path.resolve(url.slice(7)) };
  if (url) throw new Error('Invalid configuration: DATABASE_URL must start with postgres:// or sqlite:');
  return { dialect: 'sqlite', file: path.join(dataDir, 'library.sqlite') };
}

/** The SITE_* variables: the site settings a new library starts with. */
function siteDefaultsOf(e: z.infer<typeof EnvSchema>): Config['siteDefaults'] {
  const site: Config['siteDefaults'] = {};
  if (e.SITE_NAME) site.siteName = e.SITE_NAME;
  if (e.SITE_COPYRIGHT) site.copyright = e.SITE_COPYRIGHT;
  if (e.SITE_FILING_NUMBER) site.filingNumber = e.SITE_FILING_NUMBER;
  if (e.SITE_FUNDING_NOTE) site.fundingNote = e.SITE_FUNDING_NOTE;
  if (e.SITE_REQUIRE_REAL_NAME) site.requireRealName = e.SITE_REQUIRE_REAL_NAME === 'true';
  if (e.SITE_TIME_ZONE) site.timeZone = e.SITE_TIME_ZONE;
  return site;
}

/** Bucket names S3 accepts (the strictest common rule: 3–63 lowercase letters, digits, dots, hyphens). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** STORAGE_URL and the usual AWS variables as a storage choice; throws a clear error when they are wrong. */
function storageOf(e: z.infer<typeof EnvSchema>): Config['storage'] {
  const url = e.STORAGE_URL?.trim();
  if (!url || url === 'local') return { kind: 'local' };
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  if (!match || !BUCKET.test(match[1]!))
    throw new Error(
      `Invalid configuration: STORAGE_URL must be s3://bucket or s3://bucket/prefix (bucket: 3–63 lowercase letters, digits, dots or hyphens), got "${url}"`,
    );
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '..' || part === '.'))
    throw new Error(`Invalid configuration: STORAGE_URL prefix may not contain "." or ".." parts: "${url}"`);
  const id = e.AWS_ACCESS_KEY_ID;
  const secret = e.AWS_SECRET_ACCESS_KEY;
  if (Boolean(id) !== Boolean(secret))
    throw new Error(
      'Invalid configuration: set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither',
    );
  return {
    kind: 's3',
    bucket: match[1]!,
    prefix: prefix ? `${prefix}/` : '',
    endpoint: e.AWS_ENDPOINT_URL_S3 ?? e.AWS_ENDPOINT_URL,
    region: e.AWS_REGION ?? e.AWS_DEFAULT_REGION ?? 'us-east-1',
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
    credentials: id && secret ? { accessKeyId: id, secretAccessKey: secret } : undefined,
  };
}

/** IIIF_VIEWER_ORIGINS: comma-separated origins (scheme://host[:port]), each exactly as browsers send it. */
function parseViewerOrigins(text: string): string[] {
  const origins = text
    .split(',')
    .map((s) => s.trim().replace(/\/$/, ''))
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: string | undefined;
    try {
      parsed = new URL(origin).origin;
    } catch {
      parsed = undefined;
    }
    if (parsed !== origin.toLowerCase() || !/^https?:$/.test(new URL(origin).protocol))
      throw new Error(
        `Invalid configuration: IIIF_VIEWER_ORIGINS entries must be origins such as https://viewer.example.org, not "${origin}"`,
      );
  }
  return origins.map((o) => o.toLowerCase());
}
