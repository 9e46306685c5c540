import { useState } from 'react';
import { Button, Form, Input, Modal, Popconfirm, Radio, Select, Space, Table, Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  READER_CATEGORY_LABELS,
  readerCategoryText,
  ROLE_LABELS,
  ROLES,
  type AdminUser,
  type Role,
  type SetReaderCategoryRequest,
  type UserQuery,
} from '@guji/shared';
import {
  adminKeys,
  resetUserPassword,
  setReaderCategory,
  setUserDisabled,
  setUserRoles,
  useAdminUsers,
} from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { useSession } from '../../account/queries.ts';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { BookText } from '../../../components/book-text.tsx';

/** The roles chosen in a user's role picker (its options are the roles). */
const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

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
      <Space wrap className="admin-row">
        <Input.Search
          aria-label="搜索用户"
          placeholder="登录名、昵称、姓名、手机号或邮箱"
          allowClear
          style={{ width: 320 }}
          onSearch={(value) => {
            setQ(value.trim());
            setPage(1);
          }}
        />
        <Select
          aria-label="读者类别"
          allowClear
          placeholder="全部读者类别"
          style={{ width: 150 }}
          value={flag}
          onChange={(value: UserQuery['flag']) => {
            setFlag(value);
            setPage(1);
          }}
          options={Object.entries(READER_CATEGORY_LABELS).map(([value, label]) => ({ value, label }))}
        />
      </Space>
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
          columns={[
            { title: '登录名', dataIndex: 'loginName', className: 'nowrap' },
            {
              title: '姓名',
              key: 'name',
              render: (_, u) => <BookText>{u.realName ?? u.nickName ?? ''}</BookText>,
            },
            { title: '手机号', dataIndex: 'phone' },
            { title: '邮箱', dataIndex: 'email' },
            {
              title: '角色',
              key: 'roles',
              render: (_, u) => (
                <Select
                  mode="multiple"
                  aria-label={`${u.loginName} 的角色`}
                  style={{ minWidth: 220 }}
                  value={u.roles}
                  options={ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
                  onChange={(roles: string[]) =>
                    void setUserRoles(u.id, roles.filter(isRole)).then((r) => done(r.message), refresh)
                  }
                />
              ),
            },
            {
              title: '读者类别',
              key: 'flag',
              render: (_, u) => (
                <Button
                  size="small"
                  type="link"
                  onClick={() => setCategoryOf(u)}
                  // The name starts with what it shows (WCAG 2.5.3), then says whose it is.
                  aria-label={`${readerCategoryText(u.readerFlag, u.flagExpiresAt)}：修改 ${u.loginName} 的读者类别`}
                >
                  {readerCategoryText(u.readerFlag, u.flagExpiresAt)}
                </Button>
              ),
            },
            {
              title: '状态',
              dataIndex: 'disabled',
              render: (d: boolean) => (d ? <Tag color="error">已停用</Tag> : <Tag color="success">正常</Tag>),
            },
            {
              title: '操作',
              key: 'actions',
              render: (_, u) =>
                u.id !== me?.userId && (
                  <Space>
                    <Button
                      size="small"
                      onClick={() =>
                        void setUserDisabled(u.id, !u.disabled).then(
                          (r) => done(r.message),
                          () => undefined,
                        )
                      }
                    >
                      {u.disabled ? '启用' : '停用'}
                    </Button>
                    <Popconfirm
                      title={`重置 ${u.loginName} 的密码？其所有登录将失效。`}
                      okText="重置"
                      cancelText="取消"
                      onConfirm={() =>
                        void resetUserPassword(u.id).then(
                          (r) => setPassword({ login: u.loginName, password: r.password }),
                          () => undefined,
                        )
                      }
                    >
                      <Button size="small">重置密码</Button>
                    </Popconfirm>
                  </Space>
                ),
            },
          ]}
        />
      </TableScroll>
      {categoryOf && <CategoryModal user={categoryOf} onClose={() => setCategoryOf(null)} onSaved={done} />}
      <Modal
        open={password !== null}
        title="临时密码（只显示一次）"
        footer={null}
        onCancel={() => setPassword(null)}
      >
        <p>
          用户 {password?.login} 的临时密码为：<code className="temp-password">{password?.password}</code>
        </p>
        <p>请通过可靠渠道告知用户，并提醒其登录后修改密码。</p>
      </Modal>
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
