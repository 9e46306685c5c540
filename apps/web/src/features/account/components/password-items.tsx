import { Form, Input } from 'antd';
import { LIMITS, MSG, isValidPassword } from '@guji/shared';
import { PASSWORD_HINT, sameAsRule, validRule } from '../form-rules.ts';

interface NewPasswordItemProps {
  label: string;
  name: string;
  requiredMessage: string;
  placeholder: string;
}

/** A password being chosen: required, the shared password rule, and the rule stated under the box. */
export function NewPasswordItem({ label, name, requiredMessage, placeholder }: NewPasswordItemProps) {
  return (
    <Form.Item
      label={label}
      name={name}
      extra={`密码为${PASSWORD_HINT}`}
      rules={[
        { required: true, message: requiredMessage },
        validRule(isValidPassword, MSG.passwordPattern, false),
      ]}
    >
      <Input.Password maxLength={LIMITS.passwordMax} autoComplete="new-password" placeholder={placeholder} />
    </Form.Item>
  );
}

interface ConfirmPasswordItemProps {
  label: string;
  /** The field this one must equal. */
  of: string;
  requiredMessage: string;
  mismatchMessage: string;
  placeholder: string;
}

/** The repeat of a new password, checked again whenever the first one changes. */
export function ConfirmPasswordItem({
  label,
  of,
  requiredMessage,
  mismatchMessage,
  placeholder,
}: ConfirmPasswordItemProps) {
  return (
    <Form.Item
      label={label}
      name="confirmPassword"
      dependencies={[of]}
      rules={[{ required: true, message: requiredMessage }, sameAsRule(of, mismatchMessage)]}
    >
      <Input.Password maxLength={LIMITS.passwordMax} autoComplete="new-password" placeholder={placeholder} />
    </Form.Item>
  );
}
