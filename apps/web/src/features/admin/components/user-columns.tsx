import { Button, Popconfirm, Select, Space, Tag, type TableColumnsType } from 'antd';
import { readerCategoryText, ROLE_LABELS, ROLES, type AdminUser, type Role } from '@guji/shared';
import { resetUserPassword, setUserDisabled, setUserRoles } from '../queries.ts';
import { BookText } from '../../../components/book-text.tsx';

/** The roles chosen in a user's role picker (its options are the roles). */
const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** What the users table needs from its page: who is signed in, and what follows each change. */
export interface UserRowActions {
  /** The signed-in user's id: nobody changes their own state here. */
  me: number | undefined;
  /** After a change: its message shown, the list refreshed. */
  done: (message?: string) => void;
  /** After a refused change: the list refreshed (the picker shows the stored roles again). */
  refresh: () => void;
  editCategory: (user: AdminUser) => void;
  showPassword: (password: { login: string; password: string }) => void;
}

/** A user's roles, changed as they are picked. */
function RolePicker({ user, done, refresh }: { user: AdminUser } & Pick<UserRowActions, 'done' | 'refresh'>) {
  return (
    <Select
      mode="multiple"
      aria-label={`${user.loginName} 的角色`}
      style={{ minWidth: 220 }}
      value={user.roles}
      options={ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
      onChange={(roles: string[]) =>
        void setUserRoles(user.id, roles.filter(isRole)).then((r) => done(r.message), refresh)
      }
    />
  );
}

/** Disabling or enabling a user, and giving them a temporary password. */
function UserActions({
  user,
  done,
  showPassword,
}: { user: AdminUser } & Pick<UserRowActions, 'done' | 'showPassword'>) {
  return (
    <Space>
      <Button
        size="small"
        onClick={() =>
          void setUserDisabled(user.id, !user.disabled).then(
            (r) => done(r.message),
            () => undefined,
          )
        }
      >
        {user.disabled ? '启用' : '停用'}
      </Button>
      <Popconfirm
        title={`重置 ${user.loginName} 的密码？其所有登录将失效。`}
        okText="重置"
        cancelText="取消"
        onConfirm={() =>
          void resetUserPassword(user.id).then(
            (r) => showPassword({ login: user.loginName, password: r.password }),
            () => undefined,
          )
        }
      >
        <Button size="small">重置密码</Button>
      </Popconfirm>
    </Space>
  );
}

/** The users table's columns: who they are, their roles, reader category, state and actions. */
export function userColumns({
  me,
  done,
  refresh,
  editCategory,
  showPassword,
}: UserRowActions): TableColumnsType<AdminUser> {
  return [
    { title: '登录名', dataIndex: 'loginName', className: 'nowrap' },
    {
      title: '姓名',
      key: 'name',
      render: (_, u) => <BookText>{u.realName ?? u.nickName ?? ''}</BookText>,
    },
    { title: '手机号', dataIndex: 'phone' },
    { title: '邮箱', dataIndex: 'email' },
    { title: '角色', key: 'roles', render: (_, u) => <RolePicker user={u} done={done} refresh={refresh} /> },
    {
      title: '读者类别',
      key: 'flag',
      render: (_, u) => (
        <Button
          size="small"
          type="link"
          onClick={() => editCategory(u)}
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
      render: (_, u) => u.id !== me && <UserActions user={u} done={done} showPassword={showPassword} />,
    },
  ];
}
