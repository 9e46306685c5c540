import { useState } from 'react';
import { Input, Table } from 'antd';
import { useSmsOutbox } from '../queries.ts';
import { formatTime } from '../../../components/personal-list.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { SmsSettingsForm } from './sms-settings.tsx';

export function SmsOutbox() {
  const [phone, setPhone] = useState('');
  const outbox = useSmsOutbox(phone);
  return (
    <div>
      <SmsSettingsForm />
      <h3 className="admin-row">发件箱</h3>
      <p className="admin-stats">开发用短信通道记录的验证码短信（接入真实短信服务商后不再记录）。</p>
      <Input.Search
        className="admin-row"
        aria-label="按手机号筛选"
        placeholder="手机号"
        allowClear
        style={{ maxWidth: 240 }}
        onSearch={(value) => setPhone(value.trim())}
      />
      <TableScroll label="短信列表">
        <Table
          rowKey="id"
          size="small"
          loading={outbox.isPending}
          dataSource={outbox.data?.records ?? []}
          pagination={{ pageSize: 20, showSizeChanger: false }}
          columns={[
            {
              title: '时间',
              dataIndex: 'createdAt',
              className: 'nowrap',
              render: (t: string) => formatTime(t),
            },
            { title: '手机号', dataIndex: 'phone' },
            { title: '内容', dataIndex: 'text' },
          ]}
        />
      </TableScroll>
    </div>
  );
}
