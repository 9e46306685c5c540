import { Result } from 'antd';
import { useDocumentTitle } from '../../../components/use-document-title.ts';

export const MOBILE_ERROR_TEXT = '支付出错，请返回电脑端重新扫码';

/** /MobileError: the phone's page when a payment could not start. No header or footer. */
export function MobileErrorPage() {
  useDocumentTitle('支付出错');
  return (
    <main className="mobile-page">
      <Result status="error" title={<h1 className="mobile-title">{MOBILE_ERROR_TEXT}</h1>} />
    </main>
  );
}
