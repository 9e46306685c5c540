import { useState } from 'react';
import { Button, Input, Modal, Tag } from 'antd';
import {
  PAY_STATUS,
  PRINT_STATUS,
  REFUND_PROVIDER_LABELS,
  REFUND_STATUS_LABELS,
  type PrintItem,
  type Refund,
} from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { formatTime } from '../../../components/personal-list.tsx';
import { useOrderRefunds, useRefundAction } from '../refund-queries.ts';
import { money } from './print-item-cells.tsx';
import { BookText } from '../../../components/book-text.tsx';

const STATUS_COLOR: Record<Refund['status'], string> = {
  pending: 'processing',
  success: 'success',
  failed: 'error',
};

/**
 * An order's refunds at the desk, and 取消订单并退款 for a paid order none of whose pages is printed:
 * the money goes back the way it came (the provider, or cash handed back at the desk).
 */
export function OrderRefunds({ orderNum, items }: { orderNum: string; items: PrintItem[] }) {
  const refunds = useOrderRefunds(orderNum);
  const action = useRefundAction();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const cancellable =
    items.length > 0 &&
    items.every((item) => item.payStatus === PAY_STATUS.paid && item.printStatus === PRINT_STATUS.notPrinted);
  const list = refunds.data ?? [];

  const cancel = () => {
    if (!reason.trim()) {
      toast.warning('请填写取消原因');
      return;
    }
    void action.mutateAsync({ kind: 'cancel', orderNum, reason: reason.trim() }).then(
      (refund) => {
        setOpen(false);
        setReason('');
        if (refund.status === 'success') toast.success('订单已取消，款项已退回');
        else
          toast.warning(
            `订单已取消，退款${REFUND_STATUS_LABELS[refund.status]}${refund.detail ? `：${refund.detail}` : ''}`,
          );
      },
      () => undefined,
    );
  };

  if (!cancellable && list.length === 0) return null;
  return (
    <section className="desk-refunds" aria-label={`订单 ${orderNum} 的退款`}>
      {cancellable && (
        <Button danger onClick={() => setOpen(true)}>
          取消订单并退款
        </Button>
      )}
      {list.length > 0 && (
        <ul className="desk-refund-list">
          {list.map((refund) => (
            <RefundLine
              key={refund.id}
              refund={refund}
              retrying={action.isPending}
              onRetry={() =>
                void action.mutateAsync({ kind: 'retry', refundId: refund.id }).catch(() => undefined)
              }
            />
          ))}
        </ul>
      )}
      <Modal
        title={`取消订单 ${orderNum} 并退款`}
        open={open}
        okText="取消订单并退款"
        okButtonProps={{ danger: true, loading: action.isPending }}
        cancelText="返回"
        onOk={cancel}
        onCancel={() => setOpen(false)}
      >
        <p>订单取消后不能恢复：扫码支付的款项原路退回，现金订单请当面退还读者。</p>
        <Input.TextArea
          aria-label="取消原因"
          placeholder="取消原因（读者可见，最多 200 字）"
          value={reason}
          maxLength={200}
          showCount
          rows={3}
          onChange={(e) => setReason(e.target.value)}
        />
      </Modal>
    </section>
  );
}

/** One refund: its status, how much went back which way, why, when and by whom, and 重试退款 when it can be retried. */
function RefundLine({
  refund,
  retrying,
  onRetry,
}: {
  refund: Refund;
  retrying: boolean;
  onRetry: () => void;
}) {
  return (
    <li>
      <Tag color={STATUS_COLOR[refund.status]}>{REFUND_STATUS_LABELS[refund.status]}</Tag>
      {REFUND_PROVIDER_LABELS[refund.provider] ?? refund.provider} 退款 {money(refund.amountFen)} ·{' '}
      <BookText>{refund.reason}</BookText> ·{' '}
      <time dateTime={refund.createdAt}>{formatTime(refund.createdAt)}</time>
      {refund.actor ? ` · ${refund.actor}` : ' · 自动退款'}
      {refund.detail && <span className="desk-muted"> · {refund.detail}</span>}
      {refund.status !== 'success' && refund.provider !== 'cash' && (
        <Button size="small" type="link" loading={retrying} onClick={onRetry}>
          重试退款
        </Button>
      )}
    </li>
  );
}
