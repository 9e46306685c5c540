import { useEffect, useState } from 'react';
import { Button, Form, Modal, Popconfirm, Result, Table, Tabs } from 'antd';
import { useNavigate } from 'react-router';
import {
  CASH_NOTE_DELAY_MS,
  MSG,
  yuan,
  type PrintItem,
  type PrintOrder,
  type ScanPayment,
} from '@guji/shared';
import { useSiteSettings } from '../../../api/site.ts';
import { toast } from '../../../components/toast.ts';
import { formatTime, usePageParam } from '../../../components/personal-list.tsx';
import { useCheckout, useDeletePrintItems, usePayStatus, usePrintItems, useStartScan } from '../queries.ts';
import { extractLabel, money, paymentLabel, PayTag, PrintItemCell, PrintTag } from './print-item-cells.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { CheckoutForm, checkoutRequest, type CheckoutFields } from './checkout-form.tsx';

/**
 * 我的打印 (/PersonalPage/Print): 'all prints' (6 a page, newest first, pay and print status) and
 * 'to pay' (unpaid items: delete, or select and check out: pickup, payment, invoice; scan-to-pay shows
 * the QR code and waits for the payment, cash shows the desk note).
 */
export function PrintChannel() {
  const [tab, setTab] = useState<'all' | 'unpaid'>('unpaid');
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => setTab(key as 'all' | 'unpaid')}
      items={[
        { key: 'all', label: '全部打印', children: <AllPrints /> },
        { key: 'unpaid', label: '待支付', children: <ToPay /> },
      ]}
    />
  );
}

/**
 * The page, and under it on a phone (where the table keeps only the page and its status columns) the
 * order number, amount and courier number, so they are not scrolled out of sight.
 */
function ItemWithOrder({ item }: { item: PrintItem }) {
  return (
    <>
      <PrintItemCell item={item} />
      <div className="print-item-phone">
        <span>订单号 {item.orderNum ?? '未结算'}</span>
        <span>{money(item.amountFen)}</span>
        {item.expressNumber && <span>快递 {item.expressNumber}</span>}
      </div>
    </>
  );
}

function AllPrints() {
  const [page, setPage] = usePageParam();
  const query = usePrintItems('all', page);
  return (
    <TableScroll label="打印列表">
      <Table<PrintItem>
        rowKey="id"
        loading={query.isPending}
        dataSource={query.data?.records ?? []}
        locale={{ emptyText: '还没有打印记录。在阅读器中点「加入打印」即可选择页面。' }}
        pagination={{
          current: page,
          pageSize: query.data?.pageSize ?? 6,
          total: query.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => `共 ${total} 条`,
          onChange: setPage,
        }}
        columns={[
          { title: '页面', key: 'item', render: (_, item) => <ItemWithOrder item={item} /> },
          { title: '金额', dataIndex: 'amountFen', render: (fen: number) => money(fen), responsive: ['md'] },
          {
            title: '订单号',
            dataIndex: 'orderNum',
            render: (n: string | null) => n ?? '未结算',
            responsive: ['md'],
          },
          { title: '支付', key: 'pay', render: (_, item) => <PayTag status={item.payStatus} /> },
          { title: '打印', key: 'print', render: (_, item) => <PrintTag status={item.printStatus} /> },
          {
            title: '快递单号',
            dataIndex: 'expressNumber',
            render: (n: string | null) => n ?? '',
            responsive: ['md'],
          },
          {
            title: '加入时间',
            dataIndex: 'createTime',
            render: (t: string) => formatTime(t),
            responsive: ['lg'],
          },
        ]}
      />
    </TableScroll>
  );
}

/** 待支付: the unpaid items to delete or select, the checkout form under them, and the new order's payment. */
function ToPay() {
  const query = usePrintItems('unpaid', 1);
  const remove = useDeletePrintItems();
  const checkout = useCheckout();
  const site = useSiteSettings().data;
  const [selected, setSelected] = useState<number[]>([]);
  const [form] = Form.useForm<CheckoutFields>();
  const extract = Form.useWatch('extract', form) ?? 0;
  const isInvoice = Form.useWatch('isInvoice', form) ?? false;
  const [order, setOrder] = useState<PrintOrder | null>(null);
  const items = query.data?.records ?? [];
  const total = items.filter((i) => selected.includes(i.id)).reduce((sum, i) => sum + i.amountFen, 0);

  const submit = (values: CheckoutFields) => {
    if (selected.length === 0) {
      toast.warning(MSG.checkoutSelectOne);
      return;
    }
    void checkout.mutateAsync(checkoutRequest(selected, values)).then(
      (created) => {
        toast.success(MSG.orderSaved);
        setSelected([]);
        setOrder(created);
      },
      () => undefined,
    );
  };
  const removeSelected = () =>
    void remove.mutateAsync(selected).then(
      () => {
        toast.success(MSG.deleteSuccess);
        setSelected([]);
      },
      () => undefined,
    );

  return (
    <div className="to-pay">
      <TableScroll label="待支付列表">
        <Table<PrintItem>
          rowKey="id"
          loading={query.isPending}
          dataSource={items}
          locale={{ emptyText: '没有待支付的项目。' }}
          pagination={false}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
          columns={[
            { title: '页面', key: 'item', render: (_, item) => <PrintItemCell item={item} /> },
            { title: '纸张', dataIndex: 'paperSize' },
            { title: '金额', dataIndex: 'amountFen', render: (fen: number) => money(fen) },
            { title: '订单号', dataIndex: 'orderNum', render: (n: string | null) => n ?? '未结算' },
          ]}
        />
      </TableScroll>
      <SelectionBar count={selected.length} totalFen={total} onDelete={removeSelected} />

      {items.length > 0 && (
        <CheckoutForm
          form={form}
          site={site}
          extract={extract}
          isInvoice={isInvoice}
          selectedCount={selected.length}
          totalFen={total}
          pending={checkout.isPending}
          onFinish={submit}
        />
      )}
      {order && <OrderPayment order={order} onClose={() => setOrder(null)} />}
    </div>
  );
}

/** How many items are selected and their total, with 删除所选 (confirmed first). */
function SelectionBar({
  count,
  totalFen,
  onDelete,
}: {
  count: number;
  totalFen: number;
  onDelete: () => void;
}) {
  return (
    <div className="to-pay-bar">
      <span>
        已选 {count} 项，合计 <strong>{money(totalFen)}</strong>
      </span>
      <Popconfirm
        title="删除所选项目？"
        okText="删除"
        cancelText="取消"
        disabled={count === 0}
        onConfirm={onDelete}
      >
        <Button disabled={count === 0}>删除所选</Button>
      </Popconfirm>
    </div>
  );
}

/** After checkout: the QR code and the 2 s poll for a scan order, the desk note for a cash order. */
function OrderPayment({ order, onClose }: { order: PrintOrder; onClose: () => void }) {
  const navigate = useNavigate();
  const scan = useStartScan();
  const [payment, setPayment] = useState<ScanPayment | null>(null);
  const [cashNote, setCashNote] = useState(false);
  const isScan = order.payment === 1;
  const status = usePayStatus(isScan && payment ? order.orderNum : null);

  useEffect(() => {
    if (isScan) {
      // Each QR code closes the order's earlier trade: show only the latest (StrictMode runs this twice).
      let latest = true;
      scan.mutateAsync(order.orderNum).then(
        (made) => latest && setPayment(made),
        () => undefined,
      );
      return () => {
        latest = false;
      };
    }
    const timer = window.setTimeout(() => setCashNote(true), CASH_NOTE_DELAY_MS);
    return () => window.clearTimeout(timer);
    // Once per order.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [order.orderNum]);

  useEffect(() => {
    if (status.data?.data === 'paid') void navigate(`/PaymentSucceeded?orderNum=${order.orderNum}`);
  }, [status.data, navigate, order.orderNum]);

  return (
    <Modal
      open
      title={`订单 ${order.orderNum}`}
      onCancel={onClose}
      footer={[
        <Button key="order" onClick={() => void navigate(`/Order/${order.orderNum}`)}>
          查看订单
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          关闭
        </Button>,
      ]}
    >
      <p>
        共 {order.totalPage} 页，{extractLabel(order.extract)}，{paymentLabel(order.payment)}，合计 ¥
        {yuan(order.totalFen)}
      </p>
      {isScan ? (
        payment ? (
          <div className="scan-pay">
            <img src={payment.qrCode} alt="扫码支付二维码" width={220} height={220} />
            <p role="status">请用手机扫描二维码完成支付，支付完成后本页自动跳转…</p>
            <a href={payment.payUrl} target="_blank" rel="noreferrer" className="scan-pay-link">
              在手机上打开支付页面
            </a>
          </div>
        ) : (
          <p>正在生成支付二维码…</p>
        )
      ) : (
        cashNote && <Result status="info" title={MSG.cashNote} />
      )}
    </Modal>
  );
}
