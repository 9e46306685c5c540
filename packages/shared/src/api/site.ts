import { z } from 'zod';
import { MSG } from '../messages.ts';
import { hasHtmlTag, isSafeName, isSafeText } from '../validation.ts';
import { smsSettingFields, smsSettingUpdates } from './sms.ts';

/** Site texts and switches an administrator sets (footer, registration form variant). */
export const SiteSettings = z.object({
  siteName: z.string(),
  copyright: z.string().describe('Footer copyright line'),
  filingNumber: z.string().describe('Footer filing (ICP) number'),
  fundingNote: z.string().describe('Footer funding note'),
  introduction: z.string().describe('Introduction of the collection on the home page'),
  requireRealName: z.boolean().describe('Whether registration asks for real name and ID card'),
  timeZone: z
    .string()
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, '时区无效')
    .describe("The library's time zone (IANA name): same-day privileges end at its midnight"),
  downloadMaxSide: z
    .number()
    .int()
    .min(500)
    .max(10000)
    .describe('Longest side in pixels of a downloaded page image'),
  downloadVolumePdf: z.boolean().describe('Whether readers may download a whole volume as a PDF'),
  printPostEnabled: z.boolean().describe('Whether print orders may be posted (otherwise self-pickup only)'),
  ownQuotaPages: z.number().int().min(0).describe("Pages each user's own books may hold"),
  ownQuotaMb: z.number().int().min(0).describe("Megabytes of page images each user's own books may hold"),
  ...smsSettingFields,
});
export type SiteSettings = z.infer<typeof SiteSettings>;

/** A one-line site text (name, footer lines): no tags, control or bidi characters (issue 13 item 13). */
const siteLine = (max: number) => z.string().trim().max(max).refine(isSafeName, MSG.nameUnsafeChars);

/**
 * What an administrator may change: the settings, with the texts every visitor reads held to the
 * rules of names (one line) and free text (the introduction). Stored values are read with
 * SiteSettings, so texts saved before these rules still display.
 */
export const UpdateSiteRequest = SiteSettings.partial().extend({
  siteName: siteLine(50).pipe(z.string().min(1, '请输入站点名称')).optional(),
  copyright: siteLine(200).optional(),
  filingNumber: siteLine(100).optional(),
  fundingNote: siteLine(200).optional(),
  introduction: z
    .string()
    .trim()
    .max(5000)
    .refine((s) => !hasHtmlTag(s), MSG.noHtml)
    .refine(isSafeText, MSG.textUnsafeChars)
    .optional(),
  ...smsSettingUpdates,
});
export type UpdateSiteRequest = z.input<typeof UpdateSiteRequest>;

/**
 * What GET /api/site tells every visitor: the settings (less the SMS provider's sign name and
 * templates, which only administrators see) and what the server offers.
 */
export const PublicSite = SiteSettings.omit({
  smsSignName: true,
  smsTemplateRegister: true,
  smsTemplateReset: true,
  smsTemplateProfile: true,
}).extend({
  scanPay: z
    .boolean()
    .describe('Whether a scan-to-pay provider is live (otherwise print orders are paid in cash at the desk)'),
});
export type PublicSite = z.infer<typeof PublicSite>;

export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), dialect: z.enum(['sqlite', 'postgres']) }),
  jobs: z.object({
    workerRunning: z.boolean().describe('Whether this process works jobs'),
    queued: z.number().int(),
    running: z.number().int(),
    failed: z.number().int(),
  }),
  ocr: z.object({
    engine: z.string().describe('The OCR engine jobs use, e.g. vertical+own'),
    description: z.string().describe('What runs: layout, recogniser and language model'),
  }),
  payment: z.object({
    provider: z
      .enum(['sandbox', 'none', 'alipay', 'wechat'])
      .describe(
        'The live scan-to-pay provider: sandbox (no money moves), alipay (face-to-face), wechat (WeChat Pay Native) or none (cash at the desk only)',
      ),
  }),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** Liveness and readiness probes (a process supervisor, a load balancer, Kubernetes). */
export const ProbeResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  /** Why the process is not ready, in Chinese; absent when it is. */
  reason: z.string().optional(),
});
export type ProbeResponse = z.infer<typeof ProbeResponse>;

/** A reading-room terminal (DESIGN.md §7): a browser an administrator has placed in the reading room. */
export const Terminal = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type Terminal = z.infer<typeof Terminal>;

export const CreateTerminalRequest = z.object({
  name: z
    .string({ error: '请输入终端名称' })
    .trim()
    .min(1, '请输入终端名称')
    .max(50, '终端名称不能超过 50 个字')
    .refine(isSafeName, MSG.nameUnsafeChars),
});
export type CreateTerminalRequest = z.infer<typeof CreateTerminalRequest>;

/** A new terminal with its token, shown once: open `activationPath` on the terminal to put it in the reading room. */
export const CreatedTerminal = Terminal.extend({ token: z.string(), activationPath: z.string() });
export type CreatedTerminal = z.infer<typeof CreatedTerminal>;
