import { Result } from 'antd';
import { useSearchParams } from 'react-router';
import { MSG } from '@guji/shared';
import { useDocumentTitle } from '../../../components/use-document-title.ts';

/**
 * /MobileSuccess?pay_result=…: where the phone lands after scan-to-pay. pay_result=1 is a success;
 * anything else a failure. No header or footer.
 */
export function MobileSuccessPage() {
  const [searchParams] = useSearchParams();
  const paid = searchParams.get('pay_result') === '1';
  useDocumentTitle(paid ? '支付成功' : '支付失败');
  return (
    <main className="mobile-page">
      <Result
        status={paid ? 'success' : 'error'}
        title={<h1 className="mobile-title">{paid ? MSG.paySuccess : MSG.payFailed}</h1>}
      />
    </main>
  );
}
