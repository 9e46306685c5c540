import { useState } from 'react';
import { Alert, Button, Input, Space, Table, Tag, type TableColumnsType } from 'antd';
import { RECONCILIATION_VERDICTS, REFUND_PROVIDER_LABELS, type ReconciliationRow } from '@guji/shared';
import { formatTime } from '../../../components/personal-list.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { useReconciliation } from '../refund-queries.ts';
import { money } from './print-item-cells.tsx';

const OURS: Record<ReconciliationRow['ours'], string> = {
  pending: '待支付',
  paid: '已支付',
  closed: '已关闭',
};
const THEIRS: Record<ReconciliationRow['theirs'], string> = {
  paid: '已收款',
  unpaid: '未支付',
  refunded: '已退款',
  missing: '无此交易',
  error: '—',
};

/** Today in China time, as YYYY-MM-DD. */
const today = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

/**
 * 支付对账: a day's scan-to-pay trades against the provider's records, each with a verdict, and the
 * totals; discrepancies first.
 */
export function Reconciliation() {
  const [date, setDate] = useState(today());
  const [asked, setAsked] = useState<string>();
  const report = useReconciliation(asked);
  const data = report.data;
  const rows = [...(data?.trades ?? [])].sort(
    (a, b) => Number(a.verdict === 'ok') - Number(b.verdict === 'ok'),
  );

  return (
    <section className="desk-reconciliation" aria-label="支付对账">
      <h2 className="personal-subtitle">支付对账</h2>
      <Space wrap>
        <Input
          type="date"
          aria-label="对账日期"
          value={date}
          max={today()}
          onChange={(e) => setDate(e.target.value)}
          style={{ width: 170 }}
        />
        <Button onClick={() => setAsked(date)} loading={report.isFetching} disabled={!date}>
          对账
        </Button>
      </Space>
      {data && (
        <>
          <p className="desk-reconciliation-totals" role="status">
            {data.date}（北京时间）共 {data.totals.trades} 笔交易：本馆记为已付 {money(data.totals.paidFen)}，
            支付平台收款 {money(data.totals.theirPaidFen)}，已退款 {money(data.totals.refundedFen)}；
            {data.totals.discrepancies > 0 ? `${data.totals.discrepancies} 笔需核对` : '全部一致'}
          </p>
          {!data.provider && (
            <Alert type="info" showIcon message="本馆未开通扫码支付，没有可对账的支付平台。" />
          )}
          <TableScroll label="对账明细">
            <Table<ReconciliationRow>
              rowKey="tradeNo"
              size="small"
              dataSource={rows}
              pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
              locale={{ emptyText: '当天没有扫码支付交易。' }}
              columns={reconciliationColumns()}
            />
          </TableScroll>
        </>
      )}
    </section>
  );
}

/** The report's columns: the trade, how it was paid, our record, the provider's, and the verdict. */
function reconciliationColumns(): TableColumnsType<ReconciliationRow> {
  return [
    {
      title: '交易',
      key: 'trade',
      render: (_, row) => (
        <div className="desk-reader">
          <span>{row.orderNum}</span>
          <span className="desk-muted">{row.tradeNo}</span>
          <time dateTime={row.createdAt}>{formatTime(row.createdAt)}</time>
        </div>
      ),
    },
    {
      title: '支付方式',
      dataIndex: 'provider',
      render: (p: string) => REFUND_PROVIDER_LABELS[p] ?? p,
    },
    {
      title: '本馆',
      key: 'ours',
      render: (_, row) => (
        <div className="desk-reader">
          <span>{OURS[row.ours]}</span>
          <span>{money(row.amountFen)}</span>
          {row.refundedFen > 0 && <span>退款 {money(row.refundedFen)}</span>}
        </div>
      ),
    },
    {
      title: '支付平台',
      key: 'theirs',
      render: (_, row) => (
        <div className="desk-reader">
          <span>{THEIRS[row.theirs]}</span>
          {row.theirAmountFen !== null && <span>{money(row.theirAmountFen)}</span>}
        </div>
      ),
    },
    {
      title: '结果',
      key: 'verdict',
      render: (_, row) => (
        <div className="desk-reader">
          <Tag color={row.verdict === 'ok' ? 'success' : row.verdict === 'unknown' ? 'default' : 'error'}>
            {RECONCILIATION_VERDICTS[row.verdict]}
          </Tag>
          {row.note && <span className="desk-muted">{row.note}</span>}
        </div>
      ),
    },
  ];
}
