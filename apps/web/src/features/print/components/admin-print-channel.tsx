import { useState } from 'react';
import { Button, Form, Input, Select, Space, Table, type FormInstance, type TableColumnsType } from 'antd';
import { hasRole, type AdminPrintSummary, type Notification as PaidNotice } from '@guji/shared';
import { useSession } from '../../account/queries.ts';
import { PriceSettings } from './price-settings.tsx';
import { Reconciliation } from './reconciliation.tsx';
import { formatTime, usePageParam } from '../../../components/personal-list.tsx';
import { useDeskSummary, useNotifications, type DeskFilters } from '../queries.ts';
import { extractLabel, money, paymentLabel } from './print-item-cells.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { BookText, noConvert } from '../../../components/book-text.tsx';
import { InvoiceNote } from './invoice-note.tsx';
import { OrderItems } from './order-items.tsx';

/**
 * 管理员打印 (/PersonalPage/AdminPrint, print administrators): notices of paid orders; the summary of
 * orders (8 a page) filtered by name, phone, email and pickup; an order's items with the batch
 * actions: confirm cash payment, mark printed (a print-ready PDF), save a courier number; cancelling a
 * paid order with its refund; and the day's reconciliation with the payment provider.
 */
export function AdminPrintChannel() {
  const [filters, setFilters] = useState<DeskFilters>({});
  const [page, setPage] = usePageParam();
  const summary = useDeskSummary(filters, page);
  const notices = useNotifications();
  const [form] = Form.useForm<DeskFilters>();
  const roles = useSession().data?.user?.roles ?? [];

  return (
    <div className="admin-print">
      {hasRole(roles, 'admin') && <PriceSettings />}
      {(notices.data ?? []).length > 0 && <PrintNotices notices={notices.data!} />}
      <DeskFilterForm
        form={form}
        onSearch={(values) => {
          setFilters(values);
          setPage(1);
        }}
        onReset={() => {
          form.resetFields();
          setFilters({});
          setPage(1);
        }}
      />
      <TableScroll label="打印订单列表">
        <Table<AdminPrintSummary>
          rowKey="orderNum"
          loading={summary.isPending}
          dataSource={summary.data?.records ?? []}
          locale={{ emptyText: '没有打印订单。' }}
          expandable={{
            expandedRowRender: (row) => (
              <OrderItems orderNum={row.orderNum} post={row.extract === 1} invoiceTitle={row.invoiceTitle} />
            ),
          }}
          pagination={{
            current: page,
            pageSize: summary.data?.pageSize ?? 8,
            total: summary.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => `共 ${total} 条`,
            onChange: setPage,
          }}
          columns={summaryColumns()}
        />
      </TableScroll>
      <Reconciliation />
    </div>
  );
}

/** 支付通知: the five newest notices of paid orders. */
function PrintNotices({ notices }: { notices: PaidNotice[] }) {
  return (
    <section className="print-notices" aria-label="支付通知">
      <h2 className="personal-subtitle">支付通知</h2>
      <ul>
        {notices.slice(0, 5).map((n) => (
          <li key={n.id}>
            <time dateTime={n.createdAt}>{formatTime(n.createdAt)}</time> {n.text}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The desk's filters (name, phone, email, pickup) with 查询 and 重置. */
function DeskFilterForm({
  form,
  onSearch,
  onReset,
}: {
  form: FormInstance<DeskFilters>;
  onSearch: (values: DeskFilters) => void;
  onReset: () => void;
}) {
  return (
    <Form<DeskFilters> form={form} layout="inline" className="desk-filters" onFinish={onSearch}>
      <Form.Item name="realName" label="姓名">
        <Input allowClear maxLength={50} />
      </Form.Item>
      <Form.Item name="phone" label="手机号">
        <Input allowClear maxLength={20} />
      </Form.Item>
      <Form.Item name="email" label="邮箱">
        <Input allowClear maxLength={100} />
      </Form.Item>
      <Form.Item name="extract" label="取件方式">
        <Select
          allowClear
          style={{ width: 120 }}
          aria-label="取件方式"
          options={[
            { value: '0', label: '到馆自取' },
            { value: '1', label: '邮寄' },
          ]}
        />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit">
          查询
        </Button>
        <Button onClick={onReset}>重置</Button>
      </Space>
    </Form>
  );
}

/** The order summary's columns: reader, order (with its invoice), paid but unprinted, pickup and payment, amount. */
function summaryColumns(): TableColumnsType<AdminPrintSummary> {
  return [
    {
      title: '读者',
      key: 'reader',
      render: (_, row) => (
        <div className="desk-reader">
          <strong {...noConvert}>{row.realName}</strong>
          <span>{row.phone}</span>
          {row.email && <span className="desk-email">{row.email}</span>}
          <span className="desk-muted">
            下单人 <BookText>{row.creator}</BookText>
          </span>
        </div>
      ),
    },
    {
      title: '订单',
      key: 'order',
      render: (_, row) => (
        <div className="desk-reader">
          <span>{row.orderNum}</span>
          <time dateTime={row.orderCreateTime}>{formatTime(row.orderCreateTime)}</time>
          <InvoiceNote title={row.invoiceTitle} />
        </div>
      ),
    },
    { title: '已付未打印', dataIndex: 'payNoPrint', align: 'center', width: 104 },
    {
      title: '取件 / 支付',
      key: 'how',
      render: (_, row) => (
        <div className="desk-reader">
          <span>{extractLabel(row.extract)}</span>
          <span>{paymentLabel(row.payment)}</span>
        </div>
      ),
    },
    {
      title: '金额',
      dataIndex: 'totalFen',
      align: 'right',
      className: 'desk-nowrap',
      render: (fen: number) => money(fen),
    },
  ];
}
