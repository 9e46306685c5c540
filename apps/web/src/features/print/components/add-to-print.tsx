import { useState } from 'react';
import { Button, Dropdown, InputNumber, Modal } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { MSG, PRINT_RANGE_MAX } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { useAddPrintItems } from '../queries.ts';

/** A range of pages of the volume, first and last inclusive. */
interface PageRange {
  from: number;
  to: number;
}

/** 加入打印 in the reader: this page, or a range of pages of the volume. */
export function AddToPrint({
  imageId,
  fascicleId,
  pageNumber,
  total,
}: {
  imageId: number;
  fascicleId: number;
  pageNumber: number;
  total: number;
}) {
  const add = useAddPrintItems();
  const [range, setRange] = useState<PageRange | null>(null);
  const done = (result: { added: number }) => toast.success(`${MSG.printAdded}（${result.added} 页）`);

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'page', label: '本页' },
            { key: 'range', label: '页码范围…' },
          ],
          onClick: ({ key }) => {
            if (key === 'page') void add.mutateAsync({ imageId }).then(done, () => undefined);
            else setRange({ from: pageNumber, to: Math.min(total, pageNumber + 9) });
          },
        }}
      >
        <Button icon={<PrinterOutlined aria-hidden />}>加入打印</Button>
      </Dropdown>
      <Modal
        open={range !== null}
        title="按页码范围加入打印"
        okText="加入"
        cancelText="取消"
        confirmLoading={add.isPending}
        onCancel={() => setRange(null)}
        onOk={() => {
          if (!range) return;
          if (range.to < range.from) {
            toast.warning(MSG.printRangeInvalid);
            return;
          }
          if (range.to - range.from + 1 > PRINT_RANGE_MAX) {
            toast.warning(MSG.printRangeTooLong);
            return;
          }
          void add.mutateAsync({ fascicleId, ...range }).then(
            (result) => {
              done(result);
              setRange(null);
            },
            () => undefined,
          );
        }}
      >
        {range && <PageRangeInputs range={range} total={total} onChange={setRange} />}
      </Modal>
    </>
  );
}

/** The range's first and last page, each within the volume's pages. */
function PageRangeInputs({
  range,
  total,
  onChange,
}: {
  range: PageRange;
  total: number;
  onChange: (range: PageRange) => void;
}) {
  return (
    <p className="print-range">
      从第{' '}
      <InputNumber
        aria-label="起始页"
        min={1}
        max={total}
        value={range.from}
        onChange={(v) => onChange({ ...range, from: v ?? 1 })}
      />{' '}
      页到第{' '}
      <InputNumber
        aria-label="结束页"
        min={1}
        max={total}
        value={range.to}
        onChange={(v) => onChange({ ...range, to: v ?? 1 })}
      />{' '}
      页（本册共 {total} 页）
    </p>
  );
}
