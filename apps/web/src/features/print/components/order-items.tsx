import { useState } from 'react';
import { Button, Input, Modal, Space, Table, type TableColumnsType } from 'antd';
import { MSG, PAY_STATUS, printDeskApi, type PrintItem, type PrintLogEntry } from '@guji/shared';
import { hrefOf } from '../../../api/client.ts';
import { toast } from '../../../components/toast.ts';
import { formatTime } from '../../../components/personal-list.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { noConvert } from '../../../components/book-text.tsx';
import { useDeskAction, useDeskItems, useDeskLog } from '../queries.ts';
import { OrderRefunds } from './order-refunds.tsx';
import { InvoiceNote } from './invoice-note.tsx';
import { money, PayTag, PrintItemCell, PrintTag } from './print-item-cells.tsx';

type DeskActionName = 'confirm-payment' | 'printed' | 'express';

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
export function OrderItems({
  orderNum,
  post,
  invoiceTitle,
}: {
  orderNum: string;
  post: boolean;
  invoiceTitle: string | null;
}) {
  const desk = useOrderDesk(orderNum, invoiceTitle);
  return (
    <div className="desk-items" aria-label={`订单 ${orderNum} 的项目`} role="group">
      {desk.modalHolder}
      <p className="desk-order-invoice">
        <InvoiceNote title={invoiceTitle} />
      </p>
      <Space wrap className="desk-actions">
        <Button
          onClick={() => desk.run('confirm-payment')}
          disabled={!desk.unpaidChosen}
          title={desk.chosen.length > 0 && !desk.unpaidChosen ? '所选项目中有已支付的项目' : undefined}
        >
          确认付款
        </Button>
        <Button type="primary" onClick={() => desk.run('printed')} disabled={desk.refunded}>
          标记已打印
        </Button>
        {post && (
          <>
            <Input
              aria-label="快递单号"
              placeholder="快递单号"
              value={desk.express}
              maxLength={50}
              onChange={(e) => desk.setExpress(e.target.value)}
              style={{ width: 180 }}
            />
            <Button onClick={() => desk.run('express')}>保存快递单号</Button>
          </>
        )}
      </Space>
      <OrderRefunds orderNum={orderNum} items={desk.all} />
      {desk.printFiles.length > 0 && <PrintFiles orderNum={orderNum} entries={desk.printFiles} />}
      <TableScroll label="订单明细">
        <Table<PrintItem>
          rowKey="id"
          size="small"
          loading={desk.items.isPending}
          dataSource={desk.all}
          pagination={false}
          rowSelection={{
            selectedRowKeys: desk.selected,
            onChange: (keys) => desk.setSelected(keys as number[]),
          }}
          columns={orderItemColumns(post)}
        />
      </TableScroll>
    </div>
  );
}

/**
 * An order's items and log at the desk, the selection and courier number, and the batch action run on
 * them (marking printed asks first, showing the pages).
 */
function useOrderDesk(orderNum: string, invoiceTitle: string | null) {
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

  const run = (name: DeskActionName) => {
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
      content: <PrintedConfirm orderNum={orderNum} chosen={chosen} invoiceTitle={invoiceTitle} />,
      okText: '标记已打印',
      cancelText: '取消',
      onOk: () => send('printed'),
    });
  };
  const send = (name: DeskActionName) => {
    void action.mutateAsync({ action: name, ids: selected, expressNumber: express }).then(
      (result) => {
        if (result.message) toast.success(result.message);
        if (name === 'express') setExpress('');
        setSelected([]);
      },
      () => undefined,
    );
  };

  return {
    items,
    all,
    chosen,
    unpaidChosen,
    printFiles,
    refunded,
    selected,
    setSelected,
    express,
    setExpress,
    modalHolder,
    run,
  };
}

/** The confirmation's body: the print file to be made, the pages in it and the invoice the order needs. */
function PrintedConfirm({
  orderNum,
  chosen,
  invoiceTitle,
}: {
  orderNum: string;
  chosen: PrintItem[];
  invoiceTitle: string | null;
}) {
  return (
    <div className="desk-confirm">
      <p>将生成打印文件（{orderNum}.pdf），含封面页与以下页面：</p>
      <ol aria-label="将打印的页面" {...noConvert}>
        {chosen.map((item) => (
          <li key={item.id}>{pageLine(item)}</li>
        ))}
      </ol>
      {invoiceTitle !== null && <p>此订单需开发票：{invoiceTitle}</p>}
    </div>
  );
}

/** The print files 标记已打印 made for the order: download, when, who and how many pages. */
function PrintFiles({ orderNum, entries }: { orderNum: string; entries: PrintLogEntry[] }) {
  return (
    <ul className="desk-print-files" aria-label="打印文件">
      {entries.map((entry) => (
        <li key={`${entry.created_at}-${entry.detail}`}>
          <a href={hrefOf(printDeskApi.pdf, { name: entry.detail! })} download={`${orderNum}.pdf`}>
            下载打印文件（PDF）
          </a>{' '}
          <time dateTime={entry.created_at}>{formatTime(entry.created_at)}</time>
          {entry.actor ? ` · ${entry.actor}` : ''} · {pageCount(entry.item_ids)} 页
        </li>
      ))}
    </ul>
  );
}

/** The order's item columns: page, paper and amount, pay and print status, and the courier number when posted. */
function orderItemColumns(post: boolean): TableColumnsType<PrintItem> {
  return [
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
  ];
}
