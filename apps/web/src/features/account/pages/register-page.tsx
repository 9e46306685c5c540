import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { Link, useNavigate } from 'react-router';
import {
  LIMITS,
  MSG,
  isValidEmail,
  isValidIdCard,
  isValidLoginName,
  isValidRealName,
  type RegisterRequest,
} from '@guji/shared';
import { useSiteSettings } from '../../../api/site.ts';
import { toast } from '../../../components/toast.ts';
import { useDelayedAction } from '../../../components/use-delayed-action.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CaptchaInput } from '../components/captcha-input.tsx';
import { PhoneItem } from '../components/phone-item.tsx';
import { SmsCodeItem } from '../components/sms-code-input.tsx';
import { NewPasswordItem } from '../components/password-items.tsx';
import { requiredRule, validRule } from '../form-rules.ts';
import { useRegister } from '../queries.ts';
import { registerSendCodeError } from '../send-code-checks.ts';
import { useSmsCodeSender } from '../use-sms-code-sender.ts';
import { PageLoading } from '../../../components/page-loading.tsx';

interface RegisterFields {
  post: string;
  loginName: string;
  realName?: string;
  idCard?: string;
  phone: string;
  captchaCode?: string;
  phoneCode: string;
  loginPassword: string;
  email: string;
  address?: string;
}

/** Spec §4: registration success redirects to /Login after 2 s. */
const REDIRECT_DELAY_MS = 2000;

/** The form's values as the server takes them: trimmed, the ID card in capitals, real name only where asked. */
function registerRequest(values: RegisterFields, requireRealName: boolean): RegisterRequest {
  return {
    post: values.post.trim(),
    loginName: values.loginName.trim(),
    realName: requireRealName ? values.realName?.trim() : undefined,
    idCard: requireRealName ? values.idCard?.trim().toUpperCase() : undefined,
    phone: values.phone.trim(),
    phoneCode: values.phoneCode.trim(),
    loginPassword: values.loginPassword,
    email: values.email.trim(),
    address: values.address?.trim() || undefined,
  };
}

/** /Register: the registration form; real name and ID card only when the site asks for them. */
export function RegisterPage() {
  useDocumentTitle('用户注册');
  const site = useSiteSettings();
  const [form] = Form.useForm<RegisterFields>();
  const navigate = useNavigate();
  const sender = useSmsCodeSender(form, 'register', LIMITS.smsCountdownLongSeconds);
  const register = useRegister();
  const later = useDelayedAction();
  const [codeSent, setCodeSent] = useState(false);
  const [leaving, setLeaving] = useState(false);

  if (!site.data) {
    return (
      <AuthCard title="用户注册">
        <PageLoading />
      </AuthCard>
    );
  }
  const requireRealName = site.data.requireRealName;

  const onSendCode = () => {
    const values = form.getFieldsValue();
    const problem = registerSendCodeError(values, requireRealName);
    if (problem) {
      toast.error(problem);
      return;
    }
    sender.send(values.phone, values.captchaCode, () => setCodeSent(true));
  };

  const onFinish = (values: RegisterFields) => {
    register.mutate(registerRequest(values, requireRealName), {
      onSuccess: () => {
        setLeaving(true);
        toast.success(MSG.registerSuccess);
        later(() => void navigate('/Login', { replace: true }), REDIRECT_DELAY_MS);
      },
    });
  };

  const busy = register.isPending || leaving;

  return (
    <AuthCard title="用户注册" wide>
      <Form<RegisterFields> form={form} name="register" layout="vertical" onFinish={onFinish}>
        <AccountItems />
        {requireRealName && <RealNameItems />}
        <PhoneVerificationItems
          captcha={sender.captcha}
          codeSent={codeSent}
          remaining={sender.remaining}
          sending={sender.sending}
          onSend={onSendCode}
        />
        <NewPasswordItem
          label="密码"
          name="loginPassword"
          requiredMessage={MSG.passwordRequired}
          placeholder="请输入密码"
        />
        <ContactItems />
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy} disabled={busy}>
            注册
          </Button>
        </Form.Item>
      </Form>
      <div className="auth-links">
        <span>
          已有账号？<Link to="/Login">立即登录</Link>
        </span>
      </div>
    </AuthCard>
  );
}

/** Work unit and user name, the first fields of the form. */
function AccountItems() {
  return (
    <>
      <Form.Item label="工作单位" name="post" rules={[requiredRule(MSG.postRequired)]}>
        <Input maxLength={LIMITS.postMax} autoComplete="organization" placeholder="请输入工作单位" />
      </Form.Item>
      <Form.Item
        label="用户名"
        name="loginName"
        rules={[requiredRule(MSG.loginNameRequired), validRule(isValidLoginName, MSG.loginNameInvalid)]}
      >
        <Input maxLength={LIMITS.loginNameMax} autoComplete="username" placeholder="请输入用户名" />
      </Form.Item>
    </>
  );
}

/** Real name and ID card, asked only where the site requires real names. */
function RealNameItems() {
  return (
    <>
      <Form.Item
        label="真实姓名"
        name="realName"
        rules={[requiredRule(MSG.realNameRequired), validRule(isValidRealName, MSG.realNameRequired)]}
      >
        <Input maxLength={LIMITS.realNameMax} autoComplete="name" placeholder="请输入真实姓名" />
      </Form.Item>
      <Form.Item
        label="身份证号"
        name="idCard"
        rules={[requiredRule(MSG.idCardInvalid), validRule((v) => isValidIdCard(v), MSG.idCardInvalid)]}
      >
        <Input maxLength={LIMITS.idCardLength} autoComplete="off" placeholder="请输入18位身份证号" />
      </Form.Item>
    </>
  );
}

/** The phone number and its proof: the image captcha (needed until a code is sent) and the SMS code. */
function PhoneVerificationItems({
  captcha,
  codeSent,
  remaining,
  sending,
  onSend,
}: {
  captcha: ReturnType<typeof useSmsCodeSender>['captcha'];
  codeSent: boolean;
  remaining: number;
  sending: boolean;
  onSend: () => void;
}) {
  return (
    <>
      <PhoneItem
        label="手机号"
        requiredMessage={MSG.phoneRequired}
        invalidMessage={MSG.phoneInvalid}
        placeholder="请输入手机号"
      />
      <Form.Item
        label="图形验证码"
        name="captchaCode"
        extra="获取短信验证码前请先输入图形验证码"
        rules={[{ required: !codeSent, whitespace: true, message: MSG.imageCaptchaRequired }]}
      >
        <CaptchaInput captcha={captcha} />
      </Form.Item>
      <SmsCodeItem
        requiredMessage={MSG.smsCodeRequired}
        digitsMessage={MSG.smsCodeDigits}
        remaining={remaining}
        sending={sending}
        onSend={onSend}
      />
    </>
  );
}

/** E-mail (required) and postal address (optional). */
function ContactItems() {
  return (
    <>
      <Form.Item
        label="邮箱"
        name="email"
        rules={[requiredRule(MSG.emailRequired), validRule(isValidEmail, MSG.emailInvalid)]}
      >
        <Input maxLength={LIMITS.emailMax} inputMode="email" autoComplete="email" placeholder="请输入邮箱" />
      </Form.Item>
      <Form.Item label="地址" name="address">
        <Input maxLength={LIMITS.addressMax} autoComplete="street-address" placeholder="请输入地址（选填）" />
      </Form.Item>
    </>
  );
}
