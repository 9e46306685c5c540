import type { ReactNode } from 'react';
import { Input, type InputProps } from 'antd';
import { LIMITS } from '@guji/shared';

type SmsCodeInputProps = Omit<InputProps, 'value' | 'onChange'> & {
  value?: string;
  onChange?: (value: string) => void;
  /** The send-code button shown beside the box. */
  action: ReactNode;
};

/** The SMS code box with its send-code button. Use as the child of a labelled Form.Item. */
export function SmsCodeInput({ value, onChange, action, ...inputProps }: SmsCodeInputProps) {
  return (
    <div className="input-with-action">
      <Input
        {...inputProps}
        value={value}
        onChange={(event) => onChange?.(event.target.value)}
        maxLength={LIMITS.smsCodeLength}
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="请输入短信验证码"
      />
      {action}
    </div>
  );
}
