import { useEffect, useState } from 'react';
import { Button, Input, InputNumber, Space, Table, type TableColumnsType } from 'antd';
import { yuan, type PrintPrice } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { usePrices, useSavePrices } from '../queries.ts';
import { TableScroll } from '../../../components/table-scroll.tsx';

/** 价格设置 (administrators): price per page by paper size, in yuan; saved as integer fen. */
export function PriceSettings() {
  const prices = usePrices();
  const [rows, setRows] = useState<PrintPrice[]>([]);
  useEffect(() => {
    if (prices.data) setRows(prices.data);
  }, [prices.data]);
  const save = useSavePrices();
  const change = (i: number, patch: Partial<PrintPrice>) =>
    setRows((old) => old.map((row, k) => (k === i ? { ...row, ...patch } : row)));
  const remove = (i: number) => setRows((old) => old.filter((_, k) => k !== i));

  return (
    <section className="price-settings" aria-labelledby="price-settings-title">
      <h2 id="price-settings-title" className="personal-subtitle">
        价格设置
      </h2>
      <TableScroll label="打印价格表">
        <Table<PrintPrice>
          rowKey={(_, i) => String(i)}
          size="small"
          pagination={false}
          dataSource={rows}
          columns={priceColumns(rows.length, change, remove)}
        />
      </TableScroll>
      <Space className="price-actions">
        <Button onClick={() => setRows((old) => [...old, { paperSize: '', label: '', priceFen: 0 }])}>
          添加纸张
        </Button>
        <Button
          type="primary"
          loading={save.isPending}
          onClick={() => {
            if (rows.some((r) => r.paperSize.trim() === '' || r.label.trim() === '')) {
              toast.warning('请填写纸张和名称');
              return;
            }
            void save.mutateAsync(rows).then(
              () => toast.success('价格已保存'),
              () => undefined,
            );
          }}
        >
          保存价格
        </Button>
      </Space>
    </section>
  );
}

/** The editable price rows' columns: paper, name, price per page in yuan, and 删除 while more than one row is left. */
function priceColumns(
  count: number,
  change: (i: number, patch: Partial<PrintPrice>) => void,
  remove: (i: number) => void,
): TableColumnsType<PrintPrice> {
  return [
    {
      title: '纸张',
      key: 'paperSize',
      render: (_, row, i) => (
        <Input
          aria-label={`第 ${i + 1} 行纸张`}
          value={row.paperSize}
          maxLength={10}
          onChange={(e) => change(i, { paperSize: e.target.value })}
        />
      ),
    },
    {
      title: '名称',
      key: 'label',
      render: (_, row, i) => (
        <Input
          aria-label={`第 ${i + 1} 行名称`}
          value={row.label}
          maxLength={20}
          onChange={(e) => change(i, { label: e.target.value })}
        />
      ),
    },
    {
      title: '每页价格（元）',
      key: 'price',
      render: (_, row, i) => (
        <InputNumber<string>
          aria-label={`第 ${i + 1} 行每页价格`}
          min="0"
          step="0.1"
          precision={2}
          stringMode
          value={yuan(row.priceFen)}
          onChange={(value) => change(i, { priceFen: Math.round(Number(value ?? 0) * 100) })}
        />
      ),
    },
    {
      title: '',
      key: 'remove',
      render: (_, _row, i) =>
        count > 1 && (
          <Button type="link" onClick={() => remove(i)}>
            删除
          </Button>
        ),
    },
  ];
}
