import { Alert, Button, Form, Input } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SmsSettings, SmsStatus } from '@guji/shared';
import { adminKeys, updateSite, useSmsStatus } from '../queries.ts';
import { toast } from '../../../components/toast.ts';

const PROVIDER_NAME: Record<SmsStatus['provider'], string> = {
  outbox: '开发用发件箱',
  aliyun: '阿里云短信',
  tencent: '腾讯云短信',
};

const FIELD_NAME: Record<keyof SmsSettings, string> = {
  smsSignName: '短信签名',
  smsTemplateRegister: '注册账号模板',
  smsTemplateReset: '找回密码模板',
  smsTemplateProfile: '修改手机号模板',
};

/** Which provider is live (SMS_PROVIDER), and whether it has what it needs to send. */
function ProviderNotice({ status }: { status: SmsStatus }) {
  if (status.provider === 'outbox')
    return (
      <Alert
        className="admin-row"
        type="info"
        showIcon
        message="当前为开发用短信通道：验证码短信不实际发送，记录在下方发件箱供调试。"
        description="接入阿里云或腾讯云短信需由运维设置 SMS_PROVIDER 及密钥（见 docs/sms.md）；下方签名与模板届时生效。"
      />
    );
  const name = PROVIDER_NAME[status.provider];
  if (status.missing.length > 0)
    return (
      <Alert
        className="admin-row"
        type="warning"
        showIcon
        message={`已接入${name}，但尚未设置：${status.missing.map((k) => FIELD_NAME[k]).join('、')}`}
        description="缺少签名或模板时，相应的验证码无法发送，读者会看到“短信服务尚未配置完成”。"
      />
    );
  return (
    <Alert
      className="admin-row"
      type="success"
      showIcon
      message={`已接入${name}：验证码由短信服务商发送，下方发件箱不再记录新短信。`}
    />
  );
}

/** The real providers' sign name (签名) and one template per purpose, saved as site settings (audited). */
export function SmsSettingsForm() {
  const queryClient = useQueryClient();
  const status = useSmsStatus();
  const save = useMutation({
    mutationFn: (values: SmsSettings) => updateSite(values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.smsStatus }),
  });
  if (!status.data) return null;
  const hint =
    status.data.provider === 'tencent'
      ? '腾讯云：填写正文模板 ID（数字），模板变量 {1} 为验证码、{2} 为有效分钟数'
      : '阿里云：填写模板 CODE（如 SMS_123456789），模板变量 ${code} 为验证码；腾讯云填写模板 ID';
  return (
    <section aria-label="短信服务设置">
      <ProviderNotice status={status.data} />
      <Form<SmsSettings>
        layout="vertical"
        className="admin-form"
        initialValues={status.data.settings}
        onFinish={(values) =>
          void save.mutateAsync(values).then(
            () => toast.success('短信设置已保存'),
            () => undefined,
          )
        }
      >
        <Form.Item
          name="smsSignName"
          label="短信签名"
          extra="在短信服务商处审核通过的签名，2–12 个汉字、字母或数字，不含【】"
        >
          <Input maxLength={12} placeholder="如：古籍数字图书馆" />
        </Form.Item>
        {(['smsTemplateRegister', 'smsTemplateReset', 'smsTemplateProfile'] as const).map((key) => (
          <Form.Item key={key} name={key} label={FIELD_NAME[key]} extra={hint}>
            <Input maxLength={40} />
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          保存短信设置
        </Button>
      </Form>
    </section>
  );
}
