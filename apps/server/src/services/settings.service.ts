import { SiteSettings } from '@guji/shared';
import type { SettingsRepository } from '../repositories/settings.repository.ts';
import type { Config } from '../config.ts';

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

/** Site texts and switches: built-in defaults, then the environment, then what administrators saved. */
export class SettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly config: Config,
  ) {}

  async get(): Promise<SiteSettings> {
    const saved = await this.settings.getAll();
    const merged = { ...DEFAULTS, ...this.config.siteDefaults, ...saved };
    return SiteSettings.parse(merged);
  }

  async update(changes: Partial<SiteSettings>): Promise<SiteSettings> {
    const valid = SiteSettings.partial().parse(changes);
    for (const [key, value] of Object.entries(valid)) {
      if (value !== undefined) await this.settings.set(key, value);
    }
    return this.get();
  }
}
