import { Form, Input } from 'antd';
import { LIMITS, isValidPhone } from '@guji/shared';
import { requiredRule, validRule } from '../form-rules.ts';

interface PhoneItemProps {
  label: string;
  requiredMessage: string;
  invalidMessage: string;
  placeholder?: string;
  autoFocus?: boolean;
}

/** A mobile number field (`phone`): required, 11 digits of a mainland number, the phone keyboard. */
export function PhoneItem({
  label,
  requiredMessage,
  invalidMessage,
  placeholder,
  autoFocus,
}: PhoneItemProps) {
  return (
    <Form.Item
      label={label}
      name="phone"
      rules={[requiredRule(requiredMessage), validRule(isValidPhone, invalidMessage)]}
    >
      <Input
        maxLength={LIMITS.phoneLength}
        inputMode="tel"
        autoComplete="tel"
        placeholder={placeholder}
        autoFocus={autoFocus}
      />
    </Form.Item>
  );
}
