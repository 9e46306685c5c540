import { useState } from 'react';
import { Button, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import { MSG, PAY_STATUS, printDeskApi, type AdminPrintSummary, type PrintItem } from '@guji/shared';
import { hasRole } from '@guji/shared';
import { hrefOf } from '../../../api/client.ts';
import { toast } from '../../../components/toast.ts';
import { useSession } from '../../account/queries.ts';
import { PriceSettings } from './price-settings.tsx';
import { OrderRefunds } from './order-refunds.tsx';
import { Reconciliation } from './reconciliation.tsx';
import { formatTime, usePageParam } from '../../../components/personal-list.tsx';
import {
  useDeskAction,
  useDeskItems,
  useDeskLog,
  useDeskSummary,
  useNotifications,
  type DeskFilters,
} from '../queries.ts';
import { extractLabel, money, paymentLabel, PayTag, PrintItemCell, PrintTag } from './print-item-cells.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { BookText, noConvert } from '../../../components/book-text.tsx';

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
      {(notices.data ?? []).length > 0 && (
        <section className="print-notices" aria-label="支付通知">
          <h2 className="personal-subtitle">支付通知</h2>
          <ul>
            {notices.data!.slice(0, 5).map((n) => (
              <li key={n.id}>
                <time dateTime={n.createdAt}>{formatTime(n.createdAt)}</time> {n.text}
              </li>
            ))}
          </ul>
        </section>
      )}
      <Form<DeskFilters>
        form={form}
        layout="inline"
        className="desk-filters"
        onFinish={(values) => {
          setFilters(values);
          setPage(1);
        }}
      >
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
          <Button
            onClick={() => {
              form.resetFields();
              setFilters({});
              setPage(1);
            }}
          >
            重置
          </Button>
        </Space>
      </Form>
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
          columns={[
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
          ]}
        />
      </TableScroll>
      <Reconciliation />
    </div>
  );
}

/** Whether the reader asked for an invoice, and its title as they typed it (the printer encloses one). */
function InvoiceNote({ title }: { title: string | null }) {
  if (title === null) return <span className="desk-muted">不需要发票</span>;
  return (
    <span className="desk-invoice">
      <Tag className="desk-invoice-tag">需开发票</Tag>
      <BookText>{title}</BookText>
    </span>
  );
}

/** One line per page for the confirmation: book, volume, page. */
function pageLine(item: PrintItem): string {
  return `《${item.title}》${item.volumeName} 第 ${item.pageNumber} 页（${item.paperSize}）`;
}

/** How many items a log entry names (its item ids are a JSON array). */
function pageCount(itemIds: string): number {
  try {
    const ids: unknown = JSON.parse(itemIds);
    return Array.isArray(ids) ? ids.length : 0;
  } catch {
    return 0;
  }
}

/** An order's items with the desk's batch actions; the print files made for it stay listed. */
function OrderItems({
  orderNum,
  post,
  invoiceTitle,
}: {
  orderNum: string;
  post: boolean;
  invoiceTitle: string | null;
}) {
  const items = useDeskItems(orderNum);
  const log = useDeskLog(orderNum);
  const action = useDeskAction();
  const [selected, setSelected] = useState<number[]>([]);
  const [express, setExpress] = useState('');
  const [modal, modalHolder] = Modal.useModal();
  const all = items.data ?? [];
  const chosen = all.filter((item) => selected.includes(item.id));
  // Cash is confirmed only for items not paid yet (a scan payment already paid them).
  const unpaidChosen = chosen.length > 0 && chosen.every((item) => item.payStatus === PAY_STATUS.unpaid);
  const printFiles = (log.data ?? []).filter((entry) => entry.action === 'printed' && entry.detail);
  // A cancelled order (refunded) has nothing left to pay or print.
  const refunded = all.length > 0 && all.every((item) => item.payStatus === PAY_STATUS.refunded);

  const run = (name: 'confirm-payment' | 'printed' | 'express') => {
    if (selected.length === 0) {
      toast.warning('请至少选择一项');
      return;
    }
    if (name === 'printed') {
      // The server refuses these too; said here before the confirmation is asked for.
      if (chosen.some((item) => item.payStatus === PAY_STATUS.refunded))
        toast.warning(MSG.adminPrintRefunded);
      else if (chosen.some((item) => item.payStatus !== PAY_STATUS.paid)) toast.warning(MSG.adminPrintUnpaid);
      else confirmPrinted();
      return;
    }
    send(name);
  };
  /** Printing cannot be undone: the desk sees the pages (in page order) it is about to mark. */
  const confirmPrinted = () => {
    void modal.confirm({
      title: `标记 ${chosen.length} 页为已打印？`,
      content: (
        <div className="desk-confirm">
          <p>将生成打印文件（{orderNum}.pdf），含封面页与以下页面：</p>
          <ol aria-label="将打印的页面" {...noConvert}>
            {chosen.map((item) => (
              <li key={item.id}>{pageLine(item)}</li>
            ))}
          </ol>
          {invoiceTitle !== null && <p>此订单需开发票：{invoiceTitle}</p>}
        </div>
      ),
      okText: '标记已打印',
      cancelText: '取消',
      onOk: () => send('printed'),
    });
  };
  const send = (name: 'confirm-payment' | 'printed' | 'express') => {
    void action.mutateAsync({ action: name, ids: selected, expressNumber: express }).then(
      (result) => {
        if (result.message) toast.success(result.message);
        if (name === 'express') setExpress('');
        setSelected([]);
      },
      () => undefined,
    );
  };

  return (
    <div className="desk-items" aria-label={`订单 ${orderNum} 的项目`} role="group">
      {modalHolder}
      <p className="desk-order-invoice">
        <InvoiceNote title={invoiceTitle} />
      </p>
      <Space wrap className="desk-actions">
        <Button
          onClick={() => run('confirm-payment')}
          disabled={!unpaidChosen}
          title={chosen.length > 0 && !unpaidChosen ? '所选项目中有已支付的项目' : undefined}
        >
          确认付款
        </Button>
        <Button type="primary" onClick={() => run('printed')} disabled={refunded}>
          标记已打印
        </Button>
        {post && (
          <>
            <Input
              aria-label="快递单号"
              placeholder="快递单号"
              value={express}
              maxLength={50}
              onChange={(e) => setExpress(e.target.value)}
              style={{ width: 180 }}
            />
            <Button onClick={() => run('express')}>保存快递单号</Button>
          </>
        )}
      </Space>
      <OrderRefunds orderNum={orderNum} items={all} />
      {printFiles.length > 0 && (
        <ul className="desk-print-files" aria-label="打印文件">
          {printFiles.map((entry) => (
            <li key={`${entry.created_at}-${entry.detail}`}>
              <a href={hrefOf(printDeskApi.pdf, { name: entry.detail! })} download={`${orderNum}.pdf`}>
                下载打印文件（PDF）
              </a>{' '}
              <time dateTime={entry.created_at}>{formatTime(entry.created_at)}</time>
              {entry.actor ? ` · ${entry.actor}` : ''} · {pageCount(entry.item_ids)} 页
            </li>
          ))}
        </ul>
      )}
      <TableScroll label="订单明细">
        <Table<PrintItem>
          rowKey="id"
          size="small"
          loading={items.isPending}
          dataSource={all}
          pagination={false}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
          columns={[
            { title: '页面', key: 'item', render: (_, item) => <PrintItemCell item={item} /> },
            {
              title: '纸张 / 金额',
              key: 'paper',
              className: 'desk-nowrap',
              render: (_, item) => (
                <div className="desk-reader">
                  <span>{item.paperSize}</span>
                  <span>{money(item.amountFen)}</span>
                </div>
              ),
            },
            {
              title: '支付 / 打印',
              key: 'status',
              render: (_, item) => (
                <div className="desk-tags">
                  <PayTag status={item.payStatus} />
                  <PrintTag status={item.printStatus} />
                </div>
              ),
            },
            ...(post
              ? [
                  {
                    title: '快递单号',
                    dataIndex: 'expressNumber',
                    className: 'desk-express',
                    render: (n: string | null) => n ?? '',
                  },
                ]
              : []),
          ]}
        />
      </TableScroll>
    </div>
  );
}
