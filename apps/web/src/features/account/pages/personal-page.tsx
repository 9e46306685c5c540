import { Navigate, NavLink, useParams } from 'react-router';
import { LogoutOutlined } from '@ant-design/icons';
import { CHANNEL_LABELS } from '@guji/shared';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { NotFoundPage } from '../../../components/not-found-page.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { menuChannels, resolveChannel } from '../channel-access.ts';
import { CHANNEL_COMPONENTS, IMPLEMENTED_CHANNELS } from '../personal-channels.tsx';
import { useSession } from '../queries.ts';
import { useSignOut } from '../use-sign-out.ts';

/**
 * /PersonalPage and /PersonalPage/{channel}: the breadcrumb, the side menu of the user's channels
 * with a logout item, and the open channel. Render inside RequireLogin.
 */
export function PersonalPage() {
  const { channel: segment } = useParams();
  const user = useSession().data?.user;
  const { signOut, isPending } = useSignOut();
  const permitted = user?.channels ?? [];
  const channels = menuChannels(permitted, IMPLEMENTED_CHANNELS);
  const channel = resolveChannel(segment, permitted, IMPLEMENTED_CHANNELS);
  useDocumentTitle(channel ? CHANNEL_LABELS[channel] : '个人中心');

  if (!user) return null;
  if (segment === undefined) {
    // The spec opens Collection first (every reader has it); otherwise the first permitted channel.
    const first = channels.includes('Collection') ? 'Collection' : channels[0];
    return first ? <Navigate to={`/PersonalPage/${first}`} replace /> : <NotFoundPage />;
  }
  const Content = channel ? CHANNEL_COMPONENTS[channel] : undefined;
  if (!channel || !Content) return <NotFoundPage />;

  return (
    <div className="page personal-page">
      <Breadcrumbs
        second={{ title: '个人中心', to: '/PersonalPage' }}
        third={{ title: CHANNEL_LABELS[channel] }}
      />
      <div className="personal-body">
        <nav aria-label="个人中心菜单" className="personal-menu">
          <ul>
            {channels.map((item) => (
              <li key={item}>
                <NavLink to={`/PersonalPage/${item}`}>{CHANNEL_LABELS[item]}</NavLink>
              </li>
            ))}
            <li>
              <button type="button" className="personal-logout" onClick={signOut} disabled={isPending}>
                <LogoutOutlined aria-hidden /> 退出登录
              </button>
            </li>
          </ul>
        </nav>
        <section className="personal-content" aria-labelledby="channel-title">
          <h1 id="channel-title">{CHANNEL_LABELS[channel]}</h1>
          <Content />
        </section>
      </div>
    </div>
  );
}
