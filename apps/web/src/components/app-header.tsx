import { hasRole } from '@guji/shared';
import { Avatar, Button, Dropdown } from 'antd';
import { useEffect, useState } from 'react';
import { DownOutlined, MenuOutlined, UserOutlined } from '@ant-design/icons';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import type { SessionUser } from '@guji/shared';
import { useSiteSettings } from '../api/site.ts';
import { useSession } from '../features/account/queries.ts';
import { useSignOut } from '../features/account/index.ts';
import { LanguageToggle } from '../features/language/index.ts';
import { noConvert } from './book-text.tsx';

/**
 * The site header: name, navigation (the catalogue and full-text search among it), 简/繁 switch and the
 * login state. On a phone it is one row: the navigation opens from 菜单 under it.
 */
export function AppHeader() {
  const siteName = useSiteSettings().data?.siteName ?? '古籍数字图书馆';
  const session = useSession();
  const user = session.data?.user ?? null;
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  // A link chosen (or Back) closes the phone's menu.
  useEffect(() => setMenuOpen(false), [location.pathname, location.search]);

  return (
    <header className="site-header">
      <div className="site-header-inner">
        <Link to="/" className="site-brand">
          {siteName}
        </Link>
        <nav aria-label="主导航" className="site-nav" id="site-nav" data-open={menuOpen}>
          <NavLink to="/" end>
            首页
          </NavLink>
          <NavLink to="/SearchPage">古籍检索</NavLink>
          <NavLink to="/AdvancedSearch?type=1">全文检索</NavLink>
          {user && <NavLink to="/PersonalPage">个人中心</NavLink>}
          {user && <NavLink to="/OCRAside">我的古籍</NavLink>}
          {user && hasRole(user.roles, 'catalogAdmin') && <NavLink to="/Admin">管理后台</NavLink>}
        </nav>
        <div className="site-header-tools">
          <LanguageToggle />
          <button
            type="button"
            className="site-menu-button"
            aria-expanded={menuOpen}
            aria-controls="site-nav"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <MenuOutlined aria-hidden />
            <span className="visually-hidden">菜单</span>
          </button>
          {user ? (
            <UserMenu user={user} />
          ) : (
            !session.isPending && (
              <span className="site-auth-links">
                <Link to="/Login">登录</Link>
                <span aria-hidden="true">/</span>
                <Link to="/Register">注册</Link>
              </span>
            )
          )}
        </div>
      </div>
    </header>
  );
}

function UserMenu({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  const { signOut } = useSignOut();
  const name = user.nickName || user.loginName;
  return (
    <Dropdown
      trigger={['click']}
      getPopupContainer={(trigger) => trigger.parentElement ?? document.body}
      menu={{
        items: [
          { key: 'personal', label: '个人中心' },
          { key: 'logout', label: '退出登录' },
        ],
        onClick: ({ key }) => {
          if (key === 'personal') void navigate('/PersonalPage');
          else if (key === 'logout') signOut();
        },
      }}
    >
      {/* Named by its content: the name as stored (never converted) and 用户菜单 in the interface's script
          (an aria-label holding both would convert the name with it, and no longer match what is shown). */}
      <Button type="text" className="user-trigger">
        <Avatar size={28} src={user.avatarUrl ?? undefined} icon={<UserOutlined />} alt="" />
        <span className="user-name" {...noConvert}>
          {name}
        </span>
        <span className="visually-hidden">，用户菜单</span>
        <DownOutlined aria-hidden />
      </Button>
    </Dropdown>
  );
}
