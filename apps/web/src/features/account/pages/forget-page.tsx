import { useState } from 'react';
import { Button, Form, Input, Steps, type FormInstance } from 'antd';
import { Link, useNavigate } from 'react-router';
import { LIMITS, MSG, SMS_CODE_PATTERN } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { useDelayedAction } from '../../../components/use-delayed-action.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CaptchaInput } from '../components/captcha-input.tsx';
import { PhoneItem } from '../components/phone-item.tsx';
import { SendCodeButton } from '../components/send-code-button.tsx';
import { ConfirmPasswordItem, NewPasswordItem } from '../components/password-items.tsx';
import { requiredRule, validRule } from '../form-rules.ts';
import { useResetPassword, useVerifyRecoveryCode } from '../queries.ts';
import { useSmsCodeSender } from '../use-sms-code-sender.ts';

interface PhoneFields {
  phone: string;
  captchaCode: string;
}
interface CodeFields {
  code: string;
}
interface PasswordFields {
  newPassword: string;
  confirmPassword: string;
}

type Step = 0 | 1 | 2;

type SmsCodeSender = ReturnType<typeof useSmsCodeSender>;

const STEP_TITLES = ['验证手机号', '输入验证码', '设置新密码'];

/** Spec §4: success redirects to /Login after 2 s. */
const REDIRECT_DELAY_MS = 2000;

const CODE_MINUTES = LIMITS.smsCodeTtlSeconds / 60;

/** The recovery's state across its steps: the step shown, the verified phone and code, and each step's request. */
function useRecovery() {
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>(0);
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [leaving, setLeaving] = useState(false);
  const [phoneForm] = Form.useForm<PhoneFields>();
  const sender = useSmsCodeSender(phoneForm, 'reset', LIMITS.smsCountdownLongSeconds, step === 0);
  const verify = useVerifyRecoveryCode();
  const reset = useResetPassword();
  const later = useDelayedAction();

  const onSendCode = (values: PhoneFields) =>
    sender.send(values.phone, values.captchaCode, () => {
      setPhone(values.phone.trim());
      setStep(1);
    });

  const onVerify = (values: CodeFields) => {
    const entered = values.code.trim();
    verify.mutate(
      { phone, code: entered },
      {
        onSuccess: () => {
          setCode(entered);
          toast.success(MSG.codeVerified);
          setStep(2);
        },
      },
    );
  };

  const onReset = (values: PasswordFields) => {
    reset.mutate(
      { phone, code, newPassword: values.newPassword },
      {
        onSuccess: () => {
          setLeaving(true);
          toast.success(MSG.passwordSetSuccess);
          later(() => void navigate('/Login', { replace: true }), REDIRECT_DELAY_MS);
        },
      },
    );
  };

  const onResend = () => {
    setStep(0);
    sender.captcha.refresh();
  };
  return { step, phone, leaving, phoneForm, sender, verify, reset, onSendCode, onVerify, onReset, onResend };
}

/** /Forget: password recovery in three steps (phone and captcha, SMS code, new password). */
export function ForgetPage() {
  useDocumentTitle('找回密码');
  const { step, phone, leaving, phoneForm, sender, verify, reset, onSendCode, onVerify, onReset, onResend } =
    useRecovery();
  return (
    <AuthCard title="找回密码" wide>
      <Steps
        className="forget-steps"
        current={step}
        size="small"
        responsive
        items={STEP_TITLES.map((title) => ({ title }))}
      />
      {step === 0 && (
        <PhoneStep
          form={phoneForm}
          phone={phone}
          captcha={sender.captcha}
          sending={sender.sending}
          onFinish={onSendCode}
        />
      )}
      {step === 1 && (
        <CodeStep
          phone={phone}
          verifying={verify.isPending}
          remaining={sender.remaining}
          onFinish={onVerify}
          onResend={onResend}
        />
      )}
      {step === 2 && <PasswordStep resetting={reset.isPending} leaving={leaving} onFinish={onReset} />}
      <div className="auth-links">
        <Link to="/Login">返回登录</Link>
      </div>
    </AuthCard>
  );
}

/** Step 1: the phone number and the image captcha that get an SMS code sent. */
function PhoneStep({
  form,
  phone,
  captcha,
  sending,
  onFinish,
}: {
  form: FormInstance<PhoneFields>;
  phone: string;
  captcha: SmsCodeSender['captcha'];
  sending: boolean;
  onFinish: (values: PhoneFields) => void;
}) {
  return (
    <Form<PhoneFields>
      form={form}
      name="forget-phone"
      layout="vertical"
      onFinish={onFinish}
      initialValues={{ phone }}
    >
      <PhoneItem
        label="手机号"
        requiredMessage={MSG.phoneRequired}
        invalidMessage={MSG.phoneInvalid}
        placeholder="请输入注册时使用的手机号"
      />
      <Form.Item label="图形验证码" name="captchaCode" rules={[requiredRule(MSG.imageCaptchaRequired)]}>
        <CaptchaInput captcha={captcha} />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={sending}>
          获取验证码
        </Button>
      </Form.Item>
    </Form>
  );
}

/** Step 2: the SMS code sent to the (masked) phone, checked before a new password is asked. */
function CodeStep({
  phone,
  verifying,
  remaining,
  onFinish,
  onResend,
}: {
  phone: string;
  verifying: boolean;
  remaining: number;
  onFinish: (values: CodeFields) => void;
  onResend: () => void;
}) {
  return (
    <Form<CodeFields> name="forget-code" layout="vertical" onFinish={onFinish}>
      <p className="form-note">
        验证码已发送至手机 {maskPhone(phone)}，{CODE_MINUTES}分钟内有效。
      </p>
      <Form.Item
        label="短信验证码"
        name="code"
        rules={[
          requiredRule(MSG.smsCodeRequired),
          validRule((v) => SMS_CODE_PATTERN.test(v), MSG.smsCodeDigits),
        ]}
      >
        <Input
          maxLength={LIMITS.smsCodeLength}
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="请输入6位验证码"
        />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={verifying}>
          验证
        </Button>
      </Form.Item>
      <SendCodeButton remaining={remaining} loading={false} label="重新获取验证码" onSend={onResend} />
    </Form>
  );
}

/** Step 3: the new password, twice; after success the button stays disabled until the redirect. */
function PasswordStep({
  resetting,
  leaving,
  onFinish,
}: {
  resetting: boolean;
  leaving: boolean;
  onFinish: (values: PasswordFields) => void;
}) {
  return (
    <Form<PasswordFields> name="forget-password" layout="vertical" onFinish={onFinish}>
      <NewPasswordItem
        label="新密码"
        name="newPassword"
        requiredMessage={MSG.newPasswordRequired}
        placeholder="请输入新密码"
      />
      <ConfirmPasswordItem
        label="确认密码"
        of="newPassword"
        requiredMessage={MSG.confirmRequired}
        mismatchMessage={MSG.passwordMismatchRecovery}
        placeholder="请再次输入密码"
      />
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={resetting || leaving} disabled={leaving}>
          确定
        </Button>
      </Form.Item>
    </Form>
  );
}

/** 138****5678: enough to recognise the number without showing it. */
function maskPhone(phone: string): string {
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}
