import { useState } from 'react';
import { Button, Form, Input, Space } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { LIMITS, MSG, isValidPhone } from '@guji/shared';
import { serverMessage } from '../../../api/client.ts';
import { toast } from '../../../components/toast.ts';
import { withReason } from '../failure-message.ts';
import { requiredRule, validRule } from '../form-rules.ts';
import { useCaptcha, useSendSmsCode, useUpdateProfile } from '../queries.ts';
import { phoneSendCodeError } from '../send-code-checks.ts';
import { useCountdown } from '../use-countdown.ts';
import { CaptchaInput } from './captcha-input.tsx';
import { SmsCodeItem } from './sms-code-input.tsx';

interface PhoneFields {
  phone: string;
  captchaCode?: string;
  phoneCode: string;
}

/** The profile's phone number: changing it needs an SMS code sent to the new number. */
export function PhoneField({ phone }: { phone: string | null }) {
  const [editing, setEditing] = useState(false);
  return editing ? (
    <PhoneEditor phone={phone} onClose={() => setEditing(false)} />
  ) : (
    <span className="editable-display">
      <span className={phone ? 'field-value' : 'field-value field-empty'}>{phone || '未填写'}</span>
      <Button
        type="text"
        size="small"
        icon={<EditOutlined />}
        aria-label="修改手机号"
        onClick={() => setEditing(true)}
      />
    </span>
  );
}

function PhoneEditor({ phone, onClose }: { phone: string | null; onClose: () => void }) {
  const [form] = Form.useForm<PhoneFields>();
  const captcha = useCaptcha();
  const sendCode = useSendSmsCode();
  const update = useUpdateProfile();
  const countdown = useCountdown(LIMITS.smsCountdownSeconds);

  const onSendCode = () => {
    const values = form.getFieldsValue();
    const problem = phoneSendCodeError(values.phone, values.captchaCode, MSG.profilePhoneInvalid);
    if (problem) {
      toast.error(problem);
      return;
    }
    const current = captcha.captcha;
    if (!current) {
      captcha.refresh();
      return;
    }
    sendCode.mutate(
      {
        phone: values.phone.trim(),
        purpose: 'profile',
        captchaId: current.captchaId,
        captchaCode: values.captchaCode?.trim() ?? '',
      },
      {
        onSuccess: () => {
          countdown.start();
          toast.success(MSG.codeSent);
        },
        onSettled: () => {
          form.setFieldValue('captchaCode', '');
          captcha.refresh();
        },
      },
    );
  };

  const onFinish = (values: PhoneFields) => {
    const value = values.phone.trim();
    if (value === phone) {
      onClose();
      return;
    }
    update.mutate(
      { field: 'phone', value, phoneCode: values.phoneCode.trim() },
      {
        onSuccess: () => {
          toast.success(MSG.modifySuccess);
          onClose();
        },
        onError: (error) => toast.error(withReason(MSG.modifyFailed, serverMessage(error))),
      },
    );
  };

  return (
    <Form<PhoneFields>
      form={form}
      name="profile-phone"
      layout="vertical"
      className="phone-editor"
      initialValues={{ phone: phone ?? '' }}
      onFinish={onFinish}
    >
      <Form.Item
        label="新手机号"
        name="phone"
        rules={[requiredRule(MSG.profilePhoneInvalid), validRule(isValidPhone, MSG.profilePhoneInvalid)]}
      >
        <Input maxLength={LIMITS.phoneLength} inputMode="tel" autoComplete="tel" autoFocus />
      </Form.Item>
      <Form.Item label="图形验证码" name="captchaCode" extra="获取短信验证码前请先输入图形验证码">
        <CaptchaInput captcha={captcha} />
      </Form.Item>
      <SmsCodeItem
        requiredMessage={MSG.profileCodeRequired}
        digitsMessage={MSG.profileCodeRequired}
        remaining={countdown.remaining}
        sending={sendCode.isPending}
        onSend={onSendCode}
      />
      <Space>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          保存
        </Button>
        <Button onClick={onClose}>取消</Button>
      </Space>
    </Form>
  );
}
