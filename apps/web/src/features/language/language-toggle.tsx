import { Button, Space } from 'antd';
import { useLanguage } from './language-context.ts';
import { NO_CONVERT_ATTRIBUTE, type Language } from './page-converter.ts';

const OPTIONS: { value: Language; label: string; name: string }[] = [
  { value: 's', label: '简', name: '简体中文' },
  { value: 't', label: '繁', name: '繁體中文' },
];

/** The 简/繁 switch in the header. Its buttons never convert (each names its script in it); the group's
 * label is the interface's and does. */
export function LanguageToggle() {
  const { language, setLanguage } = useLanguage();
  return (
    <span role="group" aria-label="简繁切换" className="language-toggle">
      <Space.Compact>
        {OPTIONS.map((option) => (
          <Button
            key={option.value}
            size="small"
            type={language === option.value ? 'primary' : 'default'}
            aria-pressed={language === option.value}
            title={option.name}
            aria-label={option.name}
            onClick={() => setLanguage(option.value)}
            {...{ [NO_CONVERT_ATTRIBUTE]: '' }}
          >
            {option.label}
          </Button>
        ))}
      </Space.Compact>
    </span>
  );
}
