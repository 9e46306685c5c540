import { useState } from 'react';
import { Button, Form, Space } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { LIMITS, MSG } from '@guji/shared';
import { serverMessage } from '../../../api/client.ts';
import { toast } from '../../../components/toast.ts';
import { withReason } from '../failure-message.ts';
import { useUpdateProfile } from '../queries.ts';
import { phoneSendCodeError } from '../send-code-checks.ts';
import { useSmsCodeSender } from '../use-sms-code-sender.ts';
import { CaptchaInput } from './captcha-input.tsx';
import { PhoneItem } from './phone-item.tsx';
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
  const sender = useSmsCodeSender(form, 'profile', LIMITS.smsCountdownSeconds);
  const update = useUpdateProfile();

  const onSendCode = () => {
    const values = form.getFieldsValue();
    const problem = phoneSendCodeError(values.phone, values.captchaCode, MSG.profilePhoneInvalid);
    if (problem) {
      toast.error(problem);
      return;
    }
    sender.send(values.phone, values.captchaCode);
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
      <PhoneItem
        label="新手机号"
        requiredMessage={MSG.profilePhoneInvalid}
        invalidMessage={MSG.profilePhoneInvalid}
        autoFocus
      />
      <Form.Item label="图形验证码" name="captchaCode" extra="获取短信验证码前请先输入图形验证码">
        <CaptchaInput captcha={sender.captcha} />
      </Form.Item>
      <SmsCodeItem
        requiredMessage={MSG.profileCodeRequired}
        digitsMessage={MSG.profileCodeRequired}
        remaining={sender.remaining}
        sending={sender.sending}
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
