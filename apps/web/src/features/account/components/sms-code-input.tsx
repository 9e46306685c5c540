import type { ReactNode } from 'react';
import { Form, Input, type InputProps } from 'antd';
import { LIMITS, SMS_CODE_PATTERN } from '@guji/shared';
import { requiredRule, validRule } from '../form-rules.ts';
import { SendCodeButton } from './send-code-button.tsx';

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

interface SmsCodeItemProps {
  requiredMessage: string;
  digitsMessage: string;
  /** Seconds left of the send-code countdown. */
  remaining: number;
  sending: boolean;
  onSend: () => void;
}

/** The labelled `phoneCode` field: required, digits only, with its send-code button. */
export function SmsCodeItem({
  requiredMessage,
  digitsMessage,
  remaining,
  sending,
  onSend,
}: SmsCodeItemProps) {
  return (
    <Form.Item
      label="短信验证码"
      name="phoneCode"
      rules={[requiredRule(requiredMessage), validRule((v) => SMS_CODE_PATTERN.test(v), digitsMessage)]}
    >
      <SmsCodeInput action={<SendCodeButton remaining={remaining} loading={sending} onSend={onSend} />} />
    </Form.Item>
  );
}
