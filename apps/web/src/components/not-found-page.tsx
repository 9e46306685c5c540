import { Result } from 'antd';
import { Link } from 'react-router';
import { useDocumentTitle } from './use-document-title.ts';

/** The 404 page for unknown addresses and channels the user may not open. */
export function NotFoundPage() {
  useDocumentTitle('页面不存在');
  return (
    <div className="page-narrow">
      <Result
        status="404"
        title={<h1 className="result-title">404 页面不存在</h1>}
        subTitle="抱歉，您访问的页面不存在或已被删除。"
        extra={
          <Link to="/" className="link-button">
            返回首页
          </Link>
        }
      />
    </div>
  );
}
