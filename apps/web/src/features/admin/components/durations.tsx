import { useState } from 'react';
import { Button, Input, InputNumber, Table } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { ReservationDuration } from '@guji/shared';
import { personalKeys, useDurations } from '../../personal/queries.ts';
import { updateDuration } from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { TableScroll } from '../../../components/table-scroll.tsx';

export function Durations() {
  const queryClient = useQueryClient();
  const list = useDurations();
  const [edits, setEdits] = useState<Record<string, { label: string; days: number }>>({});
  return (
    <TableScroll label="借阅时长列表">
      <Table<ReservationDuration>
        rowKey="code"
        size="small"
        loading={list.isPending}
        dataSource={list.data ?? []}
        pagination={false}
        columns={[
          { title: '代码', dataIndex: 'code' },
          {
            title: '名称',
            key: 'label',
            render: (_, d) => (
              <Input
                aria-label={`${d.code} 名称`}
                maxLength={20}
                value={edits[d.code]?.label ?? d.label}
                onChange={(e) =>
                  setEdits({
                    ...edits,
                    [d.code]: { label: e.target.value, days: edits[d.code]?.days ?? d.days },
                  })
                }
              />
            ),
          },
          {
            title: '天数（0 为当日）',
            key: 'days',
            render: (_, d) => (
              <InputNumber
                aria-label={`${d.code} 天数`}
                min={0}
                max={365}
                precision={0}
                disabled={d.code === 'ANB0401'}
                value={edits[d.code]?.days ?? d.days}
                onChange={(v) =>
                  setEdits({ ...edits, [d.code]: { label: edits[d.code]?.label ?? d.label, days: v ?? 0 } })
                }
              />
            ),
          },
          {
            title: '',
            key: 'save',
            render: (_, d) => (
              <Button
                size="small"
                disabled={!edits[d.code]}
                onClick={() =>
                  void updateDuration(d.code, edits[d.code] ?? d).then(
                    () => {
                      toast.success('已保存');
                      setEdits((old) =>
                        Object.fromEntries(Object.entries(old).filter(([k]) => k !== d.code)),
                      );
                      void queryClient.invalidateQueries({ queryKey: personalKeys.durations });
                    },
                    () => undefined,
                  )
                }
              >
                保存
              </Button>
            ),
          },
        ]}
      />
    </TableScroll>
  );
}
