import { Button, Form, Input, InputNumber, Switch } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SiteSettings } from '@guji/shared';
import { updateSite } from '../queries.ts';
import { siteQueryKey, useSiteSettings } from '../../../api/site.ts';
import { toast } from '../../../components/toast.ts';

export function SiteSettingsForm() {
  const site = useSiteSettings();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (values: Partial<SiteSettings>) => updateSite(values),
    onSuccess: (saved) => queryClient.setQueryData(siteQueryKey, saved),
  });
  if (!site.data) return null;
  return (
    <Form<SiteSettings>
      layout="vertical"
      className="admin-form"
      initialValues={site.data}
      onFinish={(values) =>
        void save.mutateAsync(values).then(
          () => toast.success('站点设置已保存'),
          () => undefined,
        )
      }
    >
      <Form.Item
        name="siteName"
        label="站点名称"
        rules={[{ required: true, whitespace: true, message: '请输入站点名称' }]}
      >
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="copyright" label="页脚版权信息">
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="filingNumber" label="备案号">
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="fundingNote" label="资助说明">
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="introduction" label="馆藏简介（首页）">
        <Input.TextArea rows={4} maxLength={5000} />
      </Form.Item>
      <Form.Item name="requireRealName" label="注册时填写真实姓名和身份证号" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name="timeZone"
        label="本馆时区（当日特权至此时区午夜）"
        rules={[{ required: true, message: '请输入时区' }]}
      >
        <Input maxLength={60} />
      </Form.Item>
      <Form.Item name="downloadMaxSide" label="下载图像最长边（像素）">
        <InputNumber min={500} max={10000} precision={0} />
      </Form.Item>
      <Form.Item name="downloadVolumePdf" label="允许整册下载 PDF" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="printPostEnabled" label="打印订单可邮寄" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="ownQuotaPages" label="每位用户自有古籍页数上限">
        <InputNumber min={0} precision={0} />
      </Form.Item>
      <Form.Item name="ownQuotaMb" label="每位用户自有古籍存储上限（MB）">
        <InputNumber min={0} precision={0} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        保存设置
      </Button>
    </Form>
  );
}
