import { Input, type InputProps } from 'antd';
import type { CaptchaState } from '../queries.ts';

export const CAPTCHA_ALT = '图形验证码，点击刷新';

type CaptchaInputProps = Omit<InputProps, 'value' | 'onChange'> & {
  value?: string;
  onChange?: (value: string) => void;
  captcha: CaptchaState;
};

/**
 * The answer box of an image captcha with its image beside it. The image is a button: a click, Enter
 * or Space fetches a new one. Use as the child of a labelled Form.Item.
 */
export function CaptchaInput({ value, onChange, captcha, ...inputProps }: CaptchaInputProps) {
  return (
    <div className="input-with-action">
      <Input
        {...inputProps}
        value={value}
        onChange={(event) => onChange?.(event.target.value)}
        maxLength={10}
        autoComplete="off"
        placeholder="请输入图形验证码"
      />
      <button
        type="button"
        className="captcha-image"
        onClick={captcha.refresh}
        aria-busy={captcha.isFetching}
        title="看不清？点击刷新"
      >
        {captcha.captcha ? (
          <img src={captcha.captcha.image} alt={CAPTCHA_ALT} width={120} height={40} />
        ) : (
          <span>{captcha.isFetching ? '加载中…' : '点击获取验证码'}</span>
        )}
      </button>
    </div>
  );
}
