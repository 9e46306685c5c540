import { Button, Descriptions, Empty, Result, Spin, Table } from 'antd';
import { Link, useParams, useSearchParams } from 'react-router';
import { MSG, type PrintItem } from '@guji/shared';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { formatTime } from '../../../components/personal-list.tsx';
import { useOrder } from '../queries.ts';
import {
  extractLabel,
  money,
  paymentLabel,
  PayTag,
  PrintItemCell,
  PrintTag,
} from '../components/print-item-cells.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { BookText } from '../../../components/book-text.tsx';

/** /PaymentSucceeded?orderNum: the desktop lands here once the poll reads 'paid'. */
export function PaymentSucceededPage() {
  const orderNum = useSearchParams()[0].get('orderNum') ?? '';
  useDocumentTitle('支付成功');
  return (
    <div className="page">
      <Breadcrumbs second={{ title: '我的打印', to: '/PersonalPage/Print' }} third={{ title: '支付成功' }} />
      <Result status="success" title={<h1 className="result-title">{MSG.paySuccess}</h1>} />
      {orderNum && <OrderView orderNum={orderNum} />}
    </div>
  );
}

/** /Order/{orderNum}: an order's receipt: items, totals, pickup, payment and status. */
export function OrderPage() {
  const orderNum = useParams().orderNum ?? '';
  useDocumentTitle(`订单 ${orderNum}`);
  return (
    <div className="page">
      <Breadcrumbs
        second={{ title: '我的打印', to: '/PersonalPage/Print' }}
        third={{ title: `订单 ${orderNum}` }}
      />
      <h1 className="page-title">订单 {orderNum}</h1>
      <OrderView orderNum={orderNum} />
    </div>
  );
}

function OrderView({ orderNum }: { orderNum: string }) {
  const order = useOrder(orderNum);
  if (order.isPending) return <Spin />;
  if (order.isError) return <Empty description={order.error.message || MSG.noData} />;
  const o = order.data;
  return (
    <section className="order-view" aria-label="订单详情">
      <Descriptions bordered size="small" column={{ xs: 1, sm: 2 }}>
        <Descriptions.Item label="订单号">{o.orderNum}</Descriptions.Item>
        <Descriptions.Item label="下单时间">{formatTime(o.createTime)}</Descriptions.Item>
        <Descriptions.Item label="取件方式">{extractLabel(o.extract)}</Descriptions.Item>
        <Descriptions.Item label="支付方式">{paymentLabel(o.payment)}</Descriptions.Item>
        <Descriptions.Item label="支付状态">
          <PayTag status={o.payStatus} />
          {o.paidAt && formatTime(o.paidAt)}
        </Descriptions.Item>
        <Descriptions.Item label="合计">
          {money(o.totalFen)}（{o.totalPage} 页）
        </Descriptions.Item>
        {o.extract === 1 && (
          <Descriptions.Item label="收件信息" span={2}>
            <BookText>{o.consignee}</BookText> {o.consigneePhonenum} <BookText>{o.deliveryAddress}</BookText>
          </Descriptions.Item>
        )}
        <Descriptions.Item label="发票">
          {o.isInvoice ? <BookText>{o.invoiceTitle}</BookText> : '不需要'}
        </Descriptions.Item>
      </Descriptions>
      <TableScroll label="订单明细">
        <Table<PrintItem>
          rowKey="id"
          dataSource={o.items}
          pagination={false}
          columns={[
            { title: '页面', key: 'item', render: (_, item) => <PrintItemCell item={item} /> },
            { title: '纸张', dataIndex: 'paperSize' },
            { title: '金额', dataIndex: 'amountFen', render: (fen: number) => money(fen) },
            { title: '打印', key: 'print', render: (_, item) => <PrintTag status={item.printStatus} /> },
            { title: '快递单号', dataIndex: 'expressNumber', render: (n: string | null) => n ?? '' },
          ]}
        />
      </TableScroll>
      <Link to="/PersonalPage/Print">
        <Button>返回我的打印</Button>
      </Link>
    </section>
  );
}
