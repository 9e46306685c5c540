import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LIMITS, MSG } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { useDelayedAction } from '../../../components/use-delayed-action.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CaptchaInput } from '../components/captcha-input.tsx';
import { safeRedirect } from '../auth-redirect.ts';
import { requiredRule } from '../form-rules.ts';
import { acceptSignIn, useCaptcha, useLogin } from '../queries.ts';

interface LoginFields {
  loginName: string;
  password: string;
  captchaCode: string;
}

/** Spec §4: the redirect after a successful login waits 1 s. */
const REDIRECT_DELAY_MS = 1000;

/** /Login: username, password and image captcha (the QR-code login of the spec is switched off). */
export function LoginPage() {
  useDocumentTitle('用户登录');
  const [form] = Form.useForm<LoginFields>();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const captcha = useCaptcha();
  const login = useLogin();
  const later = useDelayedAction();
  const [leaving, setLeaving] = useState(false);

  const onFinish = (values: LoginFields) => {
    const current = captcha.captcha;
    if (!current) {
      captcha.refresh();
      return;
    }
    login.mutate(
      {
        loginName: values.loginName.trim(),
        password: values.password,
        captchaId: current.captchaId,
        captchaCode: values.captchaCode.trim(),
      },
      {
        onSuccess: (result) => {
          acceptSignIn(queryClient, result.user);
          setLeaving(true);
          if (result.weakPassword) {
            toast.warning(MSG.weakPassword);
            later(() => void navigate('/PersonalPage/ChangePassword', { replace: true }), REDIRECT_DELAY_MS);
          } else {
            toast.success(MSG.loginSuccess);
            const target = safeRedirect(searchParams.get('redirect'));
            later(() => void navigate(target, { replace: true }), REDIRECT_DELAY_MS);
          }
        },
        onError: () => {
          form.setFieldValue('captchaCode', '');
          captcha.refresh();
        },
      },
    );
  };

  return (
    <AuthCard title="用户登录">
      <Form<LoginFields> form={form} name="login" layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item label="用户名" name="loginName" rules={[requiredRule(MSG.loginNameRequired)]}>
          <Input autoComplete="username" maxLength={LIMITS.loginNameMax} placeholder="请输入用户名" />
        </Form.Item>
        <Form.Item label="密码" name="password" rules={[{ required: true, message: MSG.passwordRequired }]}>
          <Input.Password autoComplete="current-password" placeholder="请输入密码" />
        </Form.Item>
        <Form.Item label="验证码" name="captchaCode" rules={[requiredRule(MSG.captchaRequired)]}>
          <CaptchaInput captcha={captcha} />
        </Form.Item>
        <Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={login.isPending || leaving}
            disabled={login.isPending || leaving}
          >
            登录
          </Button>
        </Form.Item>
      </Form>
      <div className="auth-links">
        <Link to="/Register">没有账号？立即注册</Link>
        <Link to="/Forget">忘记密码</Link>
      </div>
    </AuthCard>
  );
}
