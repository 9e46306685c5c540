import type { ThemeConfig } from 'antd';

/**
 * Colours of an old book's ink and seal, with text colours darkened from antd's defaults so every
 * text reaches WCAG AA contrast (4.5:1) on white.
 */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#8b2a1b',
    colorLink: '#8b2a1b',
    colorError: '#c41d1d',
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    borderRadius: 4,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Source Han Sans SC', sans-serif",
  },
};
