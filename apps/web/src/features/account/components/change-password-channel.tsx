import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { MSG } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { useDelayedAction } from '../../../components/use-delayed-action.ts';
import { clearSession, useChangePassword } from '../queries.ts';
import { ConfirmPasswordItem, NewPasswordItem } from './password-items.tsx';

interface ChangePasswordFields {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Spec §4: the forced new login follows 2 s after the success message. */
const REDIRECT_DELAY_MS = 2000;

/** 修改密码 (ChangePassword). The server ends every session, so a new login follows. */
export function ChangePasswordChannel() {
  const changePassword = useChangePassword();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const later = useDelayedAction();
  const [leaving, setLeaving] = useState(false);

  const onFinish = (values: ChangePasswordFields) => {
    changePassword.mutate(
      { oldPassword: values.oldPassword, newPassword: values.newPassword },
      {
        onSuccess: () => {
          setLeaving(true);
          toast.success(MSG.passwordSetSuccess);
          later(() => {
            clearSession(queryClient);
            void navigate('/Login', { replace: true });
          }, REDIRECT_DELAY_MS);
        },
      },
    );
  };

  return (
    <Form<ChangePasswordFields>
      name="change-password"
      layout="vertical"
      className="narrow-form"
      onFinish={onFinish}
    >
      <Form.Item
        label="原密码"
        name="oldPassword"
        rules={[{ required: true, message: MSG.oldPasswordRequired }]}
      >
        <Input.Password autoComplete="current-password" placeholder="请输入原密码" />
      </Form.Item>
      <NewPasswordItem
        label="新密码"
        name="newPassword"
        requiredMessage={MSG.newPasswordRequired}
        placeholder="请输入新密码"
      />
      <ConfirmPasswordItem
        label="确认新密码"
        of="newPassword"
        requiredMessage={MSG.confirmNewPasswordRequired}
        mismatchMessage={MSG.passwordMismatch}
        placeholder="请再次输入新密码"
      />
      <Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          loading={changePassword.isPending || leaving}
          disabled={changePassword.isPending || leaving}
        >
          确定
        </Button>
      </Form.Item>
    </Form>
  );
}
