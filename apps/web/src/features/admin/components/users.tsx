import { useState } from 'react';
import { Form, Input, Modal, Radio, Select, Space, Table } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  READER_CATEGORY_LABELS,
  type AdminUser,
  type SetReaderCategoryRequest,
  type UserQuery,
} from '@guji/shared';
import { adminKeys, setReaderCategory, useAdminUsers } from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { useSession } from '../../account/queries.ts';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { userColumns } from './user-columns.tsx';

/** The search box and reader-category filter above the users table. */
function UserFilters({
  flag,
  onSearch,
  onFlag,
}: {
  flag: UserQuery['flag'];
  onSearch: (q: string) => void;
  onFlag: (flag: UserQuery['flag']) => void;
}) {
  return (
    <Space wrap className="admin-row">
      <Input.Search
        aria-label="搜索用户"
        placeholder="登录名、昵称、姓名、手机号或邮箱"
        allowClear
        style={{ width: 320 }}
        onSearch={(value) => onSearch(value.trim())}
      />
      <Select
        aria-label="读者类别"
        allowClear
        placeholder="全部读者类别"
        style={{ width: 150 }}
        value={flag}
        onChange={onFlag}
        options={Object.entries(READER_CATEGORY_LABELS).map(([value, label]) => ({ value, label }))}
      />
    </Space>
  );
}

/** A temporary password, shown once after a reset. */
function TemporaryPassword({
  password,
  onClose,
}: {
  password: { login: string; password: string } | null;
  onClose: () => void;
}) {
  return (
    <Modal open={password !== null} title="临时密码（只显示一次）" footer={null} onCancel={onClose}>
      <p>
        用户 {password?.login} 的临时密码为：<code className="temp-password">{password?.password}</code>
      </p>
      <p>请通过可靠渠道告知用户，并提醒其登录后修改密码。</p>
    </Modal>
  );
}

/**
 * The console's users: search (and by reader category), roles, reader category with its last day,
 * disable or enable, and a temporary password. Nobody changes their own state here.
 */
export function Users() {
  const [q, setQ] = useState('');
  const [flag, setFlag] = useState<UserQuery['flag']>(undefined);
  const [page, setPage] = useState(1);
  const [categoryOf, setCategoryOf] = useState<AdminUser | null>(null);
  const queryClient = useQueryClient();
  const me = useSession().data?.user;
  const users = useAdminUsers(q, flag, page);
  const [password, setPassword] = useState<{ login: string; password: string } | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.users });
  const done = (message?: string) => {
    if (message) toast.success(message);
    refresh();
  };
  return (
    <div>
      <UserFilters
        flag={flag}
        onSearch={(value) => {
          setQ(value);
          setPage(1);
        }}
        onFlag={(value) => {
          setFlag(value);
          setPage(1);
        }}
      />
      <TableScroll label="用户列表">
        <Table<AdminUser>
          rowKey="id"
          size="small"
          loading={users.isPending}
          dataSource={users.data?.records ?? []}
          pagination={{
            current: page,
            pageSize: 20,
            total: users.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPage,
          }}
          columns={userColumns({
            me: me?.userId,
            done,
            refresh,
            editCategory: setCategoryOf,
            showPassword: setPassword,
          })}
        />
      </TableScroll>
      {categoryOf && <CategoryModal user={categoryOf} onClose={() => setCategoryOf(null)} onSaved={done} />}
      <TemporaryPassword password={password} onClose={() => setPassword(null)} />
    </div>
  );
}

function CategoryModal({
  user,
  onClose,
  onSaved,
}: {
  user: AdminUser;
  onClose: () => void;
  onSaved: (message?: string) => void;
}) {
  const [form] = Form.useForm<{ flag: '1' | '2'; lastDay?: string }>();
  const [saving, setSaving] = useState(false);
  const flag = Form.useWatch('flag', form);
  return (
    <Modal
      open
      title={`读者类别：${user.loginName}`}
      okText="保存"
      cancelText="取消"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ flag: user.readerFlag === '2' ? '2' : '1' }}
        onFinish={(values) => {
          const body: SetReaderCategoryRequest = {
            flag: values.flag,
            lastDay: values.flag === '2' && values.lastDay ? values.lastDay : null,
          };
          setSaving(true);
          void setReaderCategory(user.id, body)
            .then(
              (r) => {
                onSaved(r.message);
                onClose();
              },
              () => undefined,
            )
            .finally(() => setSaving(false));
        }}
      >
        <Form.Item name="flag" label="类别">
          <Radio.Group
            options={Object.entries(READER_CATEGORY_LABELS).map(([value, label]) => ({ value, label }))}
          />
        </Form.Item>
        <p className="own-note">
          研究读者可在阅览室以外阅读全部已公开的古籍（与在阅览室内相同），到截止日期当天结束为止；全文检索仍只在阅览室内提供。
        </p>
        {flag === '2' && (
          <Form.Item name="lastDay" label="截止日期（含当天，不填为长期）">
            <Input type="date" aria-label="截止日期" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
