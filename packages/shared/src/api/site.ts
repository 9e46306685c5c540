import { z } from 'zod';

/** Site texts and switches an administrator sets (footer, registration form variant). */
export const SiteSettings = z.object({
  siteName: z.string(),
  copyright: z.string().describe('Footer copyright line'),
  filingNumber: z.string().describe('Footer filing (ICP) number'),
  fundingNote: z.string().describe('Footer funding note'),
  introduction: z.string().describe('Introduction of the collection on the home page'),
  requireRealName: z.boolean().describe('Whether registration asks for real name and ID card'),
});
export type SiteSettings = z.infer<typeof SiteSettings>;

export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), dialect: z.enum(['sqlite', 'postgres']) }),
  jobs: z.object({
    workerRunning: z.boolean().describe('Whether this process works jobs'),
    queued: z.number().int(),
    running: z.number().int(),
    failed: z.number().int(),
  }),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
