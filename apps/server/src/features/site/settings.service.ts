import { SiteSettings, UpdateSiteRequest } from '@guji/shared';
import type { SettingsRepository } from './settings.repository.ts';
import type { Config } from '../../config.ts';

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
  ) {}

  async get(): Promise<SiteSettings> {
    if (this.cached && Date.now() - this.cached.at < REFRESH_MS) return this.cached.value;
    const saved = await this.settings.getAll();
    const value = SiteSettings.parse({ ...DEFAULTS, ...this.config.siteDefaults, ...saved });
    this.cached = { value, at: Date.now() };
    return value;
  }

  async update(changes: UpdateSiteRequest): Promise<SiteSettings> {
    const valid = UpdateSiteRequest.parse(changes);
    for (const [key, value] of Object.entries(valid)) {
      if (value !== undefined) await this.settings.set(key, value);
    }
    this.cached = undefined;
    return this.get();
  }
}
