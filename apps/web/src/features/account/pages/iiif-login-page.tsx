import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { iiifLoginTarget } from '../iiif-login.ts';

/**
 * The login window of an outside IIIF viewer (Mirador, Universal Viewer) comes here after /Login and goes
 * on, with a full page load, to the server's IIIF login service, which gives the viewer access and
 * closes the window (IIIF Authorization, issue 18).
 */
export function IiifLoginPage() {
  useDocumentTitle('返回查看器');
  const [searchParams] = useSearchParams();
  const target = iiifLoginTarget(searchParams.get('next'));
  useEffect(() => {
    if (target) window.location.replace(target);
  }, [target]);
  return (
    <AuthCard title="返回查看器">
      {target ? (
        <p role="status">已登录，正在返回查看器……</p>
      ) : (
        <p role="alert">
          链接无效：请回到查看器重新点击“登录”。<Link to="/">返回首页</Link>
        </p>
      )}
    </AuthCard>
  );
}
