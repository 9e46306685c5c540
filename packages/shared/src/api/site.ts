import { z } from 'zod';

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
});
export type SiteSettings = z.infer<typeof SiteSettings>;

/** What GET /api/site tells every visitor: the settings and what the server offers. */
export const PublicSite = SiteSettings.extend({
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
    engine: z.string().describe('The OCR engine jobs use, e.g. vertical+ppocrv4'),
    description: z.string().describe('What runs (and what does not, e.g. Tesseract)'),
  }),
  payment: z.object({
    provider: z
      .enum(['sandbox', 'none'])
      .describe('The live scan-to-pay provider: sandbox (no money moves) or none (cash at the desk only)'),
  }),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

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
    .max(50, '终端名称不能超过 50 个字'),
});
export type CreateTerminalRequest = z.infer<typeof CreateTerminalRequest>;

/** A new terminal with its token, shown once: open `activationPath` on the terminal to put it in the reading room. */
export const CreatedTerminal = Terminal.extend({ token: z.string(), activationPath: z.string() });
export type CreatedTerminal = z.infer<typeof CreatedTerminal>;
