import { useState } from 'react';
import { Button, Result, Spin } from 'antd';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { yuan } from '@guji/shared';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { confirmSandboxPayment, useSandboxPayment } from '../queries.ts';

/**
 * /SandboxPay/{tradeNo}?sig: the sandbox provider's mobile payment page (what the QR code opens). No
 * money moves: confirming makes the provider's signed notice reach the notify webhook, then the phone
 * lands on /MobileSuccess. No header or footer.
 */
export function SandboxPayPage() {
  useDocumentTitle('扫码支付');
  const tradeNo = useParams().tradeNo ?? '';
  const sig = useSearchParams()[0].get('sig') ?? '';
  const info = useSandboxPayment(tradeNo, sig);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const answer = (pay: boolean) => {
    setBusy(true);
    confirmSandboxPayment(tradeNo, sig, pay).then(
      (result) => void navigate(`/MobileSuccess?pay_result=${result.payResult}`, { replace: true }),
      () => void navigate('/MobileSuccess?pay_result=0', { replace: true }),
    );
  };

  if (info.isPending) return <Spin />;
  if (info.isError) {
    return (
      <main className="mobile-page">
        <Result status="error" title={<h1 className="mobile-title">支付链接无效或已过期</h1>} />
      </main>
    );
  }
  const data = info.data;
  return (
    <main className="mobile-page sandbox-pay">
      <h1 className="mobile-title">{data.siteName} · 打印费用</h1>
      <p className="sandbox-amount">¥{yuan(data.amountFen)}</p>
      <p>订单号 {data.orderNum}</p>
      <p className="sandbox-note">演示支付通道（沙箱）：不产生真实扣款。</p>
      {data.status === 'paid' ? (
        <Result status="success" title="该订单已支付" />
      ) : (
        <div className="sandbox-actions">
          <Button type="primary" size="large" block loading={busy} onClick={() => answer(true)}>
            确认支付
          </Button>
          <Button size="large" block disabled={busy} onClick={() => answer(false)}>
            取消支付
          </Button>
        </div>
      )}
    </main>
  );
}
