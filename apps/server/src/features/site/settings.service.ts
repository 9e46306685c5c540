import { SiteSettings, UpdateSiteRequest } from '@guji/shared';
import type { SettingsRepository } from './settings.repository.ts';
import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import type { Auditor } from '../../audit/auditor.ts';

const DEFAULTS: SiteSettings = {
  siteName: '古籍数字图书馆',
  copyright: '版权所有 © 古籍数字图书馆',
  filingNumber: '',
  fundingNote: '',
  introduction: '',
  requireRealName: true,
  timeZone: 'Asia/Shanghai',
  downloadMaxSide: 2400,
  downloadVolumePdf: true,
  printPostEnabled: false,
  ownQuotaPages: 2000,
  ownQuotaMb: 1024,
  // The real SMS providers' sign name and templates (docs/sms.md); empty until an administrator sets them.
  smsSignName: '',
  smsTemplateRegister: '',
  smsTemplateReset: '',
  smsTemplateProfile: '',
};

/** How long a server keeps the settings before reading them again (other servers' saves arrive by then). */
const REFRESH_MS = 30_000;

/**
 * Site texts and switches: built-in defaults, then the environment, then what administrators saved.
 * Kept in memory and read again every 30 seconds, so the many requests that consult them (page views,
 * searches, downloads, the footer) cost no query; a save here applies at once.
 */
export class SettingsService {
  private cached: { value: SiteSettings; at: number } | undefined;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly config: Config,
    private readonly auditor: Auditor,
    private readonly transact: Transact,
  ) {}

  async get(): Promise<SiteSettings> {
    if (this.cached && Date.now() - this.cached.at < REFRESH_MS) return this.cached.value;
    const value = await this.read();
    this.cached = { value, at: Date.now() };
    return value;
  }

  private async read(tx?: DbOrTx): Promise<SiteSettings> {
    const saved = await this.settings.getAll(tx);
    return SiteSettings.parse({ ...DEFAULTS, ...this.config.siteDefaults, ...saved });
  }

  /**
   * Saves the given settings. An administrator's save (`actorId` given) is one transaction with its
   * audit record, which holds only what actually changed (a console form sends every field); a save
   * that changes nothing leaves no record. Set-up code (the demo, tests) passes no actor.
   */
  async update(changes: UpdateSiteRequest, actorId?: number): Promise<SiteSettings> {
    const valid = UpdateSiteRequest.parse(changes);
    const after = await this.transact(async (tx) => {
      const before = await this.read(tx);
      for (const [key, value] of Object.entries(valid)) {
        if (value !== undefined) await this.settings.set(key, value, tx);
      }
      const saved = await this.read(tx);
      const changed = (Object.keys(valid) as Array<keyof SiteSettings>).filter(
        (k) => JSON.stringify(before[k]) !== JSON.stringify(saved[k]),
      );
      if (actorId !== undefined && changed.length > 0)
        await this.auditor.record(
          actorId,
          'site.update',
          'site',
          Object.fromEntries(changed.map((k) => [k, before[k]])),
          Object.fromEntries(changed.map((k) => [k, saved[k]])),
          tx,
        );
      return saved;
    });
    this.cached = { value: after, at: Date.now() };
    return after;
  }
}
