import { useState } from 'react';
import { Button, Form, Input, Select, Space, Table } from 'antd';
import type { AdminPrintSummary, PrintItem } from '@guji/shared';
import { hasRole } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { useSession } from '../../account/queries.ts';
import { PriceSettings } from './price-settings.tsx';
import { formatTime, usePageParam } from '../../../components/personal-list.tsx';
import {
  useDeskAction,
  useDeskItems,
  useDeskSummary,
  useNotifications,
  type DeskFilters,
} from '../queries.ts';
import { extractLabel, money, paymentLabel, PayTag, PrintItemCell, PrintTag } from './print-item-cells.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';

/**
 * 管理员打印 (/PersonalPage/AdminPrint, print administrators): notices of paid orders; the summary of
 * orders (8 a page) filtered by name, phone, email and pickup; an order's items with the batch
 * actions: confirm cash payment, mark printed (a print-ready PDF), save a courier number.
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
          expandable={{ expandedRowRender: (row) => <OrderItems orderNum={row.orderNum} /> }}
          pagination={{
            current: page,
            pageSize: summary.data?.pageSize ?? 8,
            total: summary.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => `共 ${total} 条`,
            onChange: setPage,
          }}
          columns={[
            { title: '姓名', dataIndex: 'realName' },
            { title: '手机号', dataIndex: 'phone' },
            { title: '邮箱', dataIndex: 'email' },
            { title: '订单号', dataIndex: 'orderNum' },
            { title: '下单时间', dataIndex: 'orderCreateTime', render: (t: string) => formatTime(t) },
            { title: '已付未打印', dataIndex: 'payNoPrint' },
            { title: '取件方式', dataIndex: 'extract', render: (e: number) => extractLabel(e) },
            { title: '支付方式', dataIndex: 'payment', render: (p: number) => paymentLabel(p) },
            { title: '金额', dataIndex: 'totalFen', render: (fen: number) => money(fen) },
            { title: '下单人', dataIndex: 'creator' },
          ]}
        />
      </TableScroll>
    </div>
  );
}

function OrderItems({ orderNum }: { orderNum: string }) {
  const items = useDeskItems(orderNum);
  const action = useDeskAction();
  const [selected, setSelected] = useState<number[]>([]);
  const [express, setExpress] = useState('');
  const [pdfUrl, setPdfUrl] = useState<string | null>(null);

  const run = (name: 'confirm-payment' | 'printed' | 'express') => {
    if (selected.length === 0) {
      toast.warning('请至少选择一项');
      return;
    }
    void action.mutateAsync({ action: name, ids: selected, expressNumber: express }).then(
      (result) => {
        if (result.message) toast.success(result.message);
        if (result.pdfUrl) setPdfUrl(result.pdfUrl);
        if (name === 'express') setExpress('');
        setSelected([]);
      },
      () => undefined,
    );
  };

  return (
    <div className="desk-items" aria-label={`订单 ${orderNum} 的项目`} role="group">
      <Space wrap className="desk-actions">
        <Button onClick={() => run('confirm-payment')}>确认付款</Button>
        <Button type="primary" onClick={() => run('printed')}>
          标记已打印
        </Button>
        <Input
          aria-label="快递单号"
          placeholder="快递单号"
          value={express}
          maxLength={50}
          onChange={(e) => setExpress(e.target.value)}
          style={{ width: 180 }}
        />
        <Button onClick={() => run('express')}>保存快递单号</Button>
        {pdfUrl && (
          <a href={pdfUrl} download className="ant-btn ant-btn-default">
            下载打印文件（PDF）
          </a>
        )}
      </Space>
      <TableScroll label="订单明细">
        <Table<PrintItem>
          rowKey="id"
          size="small"
          loading={items.isPending}
          dataSource={items.data ?? []}
          pagination={false}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
          columns={[
            { title: '页面', key: 'item', render: (_, item) => <PrintItemCell item={item} /> },
            { title: '纸张', dataIndex: 'paperSize' },
            { title: '金额', dataIndex: 'amountFen', render: (fen: number) => money(fen) },
            { title: '支付', key: 'pay', render: (_, item) => <PayTag status={item.payStatus} /> },
            { title: '打印', key: 'print', render: (_, item) => <PrintTag status={item.printStatus} /> },
            { title: '快递单号', dataIndex: 'expressNumber', render: (n: string | null) => n ?? '' },
          ]}
        />
      </TableScroll>
    </div>
  );
}
