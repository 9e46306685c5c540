import { useState } from 'react';
import { Button, Input, Modal, Popconfirm, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { CreatedTerminal, Terminal } from '@guji/shared';
import {
  adminKeys,
  createTerminal,
  revokeTerminal,
  saveReadingRoomAddresses,
  useReadingRoomAddresses,
  useTerminals,
} from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { formatTime } from '../../../components/personal-list.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { BookText } from '../../../components/book-text.tsx';

/** The reading room's address ranges, one per line; the administrator's own address as a guide. */
function ReadingRoomAddresses() {
  const queryClient = useQueryClient();
  const addresses = useReadingRoomAddresses();
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const value = text ?? addresses.data?.cidrs.join('\n') ?? '';
  const save = () => {
    setError(null);
    void saveReadingRoomAddresses(value.split(/[\n,，]/)).then(
      (result) => {
        toast.success(result.message ?? '');
        setText(null);
        void queryClient.invalidateQueries({ queryKey: adminKeys.readingRoomAddresses });
      },
      (failure: unknown) => setError(failure instanceof Error ? failure.message : '保存失败'),
    );
  };
  return (
    <section className="admin-form" aria-labelledby="reading-room-addresses">
      <h2 id="reading-room-addresses" className="admin-subtitle">
        阅览室地址段
      </h2>
      <p className="admin-stats">
        来自这些地址的访问即为阅览室：可全文检索，可阅读未开放在线阅览的古籍。每行一个 IP 地址或地址段（如
        10.1.0.0/16）。
        {addresses.data &&
          `您当前的地址是 ${addresses.data.clientIp}，${addresses.data.inReadingRoom ? '在' : '不在'}阅览室内。`}
        {addresses.data?.fromEnvironment && '当前使用部署时配置的默认值（READING_ROOM_CIDRS）。'}
      </p>
      <Input.TextArea
        aria-label="阅览室地址段"
        rows={4}
        value={value}
        onChange={(e) => setText(e.target.value)}
        style={{ maxWidth: 420 }}
      />
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      <div className="admin-row">
        <Button type="primary" disabled={text === null} onClick={save}>
          保存地址段
        </Button>
      </div>
    </section>
  );
}

/** The terminals table's columns: name, when issued and last used, state, and revoking a valid one. */
function terminalColumns(refresh: () => void): TableColumnsType<Terminal> {
  return [
    { title: '名称', dataIndex: 'name', render: (v: string) => <BookText>{v}</BookText> },
    { title: '发放时间', dataIndex: 'createdAt', render: (t: string) => formatTime(t) },
    {
      title: '最近使用',
      dataIndex: 'lastSeenAt',
      render: (t: string | null) => (t ? formatTime(t) : '未使用'),
    },
    {
      title: '状态',
      dataIndex: 'revokedAt',
      render: (t: string | null) => (t ? <Tag>已吊销</Tag> : <Tag color="success">有效</Tag>),
    },
    {
      title: '操作',
      key: 'revoke',
      render: (_, t) =>
        !t.revokedAt && (
          <Popconfirm
            title="吊销后该终端立即退出阅览室模式"
            okText="吊销"
            cancelText="取消"
            onConfirm={() => void revokeTerminal(t.id).then(refresh, () => undefined)}
          >
            <Button size="small" danger>
              吊销
            </Button>
          </Popconfirm>
        ),
    },
  ];
}

/** A new terminal's activation address, shown once. */
function ActivationLink({ created, onClose }: { created: CreatedTerminal | null; onClose: () => void }) {
  return (
    <Modal open={created !== null} title="终端令牌（只显示一次）" footer={null} onCancel={onClose}>
      <p>在该终端的浏览器中打开下面的地址，即进入阅览室模式：</p>
      <Input.TextArea
        readOnly
        rows={3}
        value={created ? `${window.location.origin}${created.activationPath}` : ''}
      />
    </Modal>
  );
}

/** 阅览室: the reading room's address ranges, and tokens for terminals outside them (issued, listed, revoked). */
export function Terminals() {
  const queryClient = useQueryClient();
  const list = useTerminals();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedTerminal | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.terminals });
  return (
    <div>
      <ReadingRoomAddresses />
      <h2 className="admin-subtitle">阅览室终端</h2>
      <p className="admin-stats">
        不在上述地址段内的电脑（如馆外分馆的借阅机），可凭管理员发放的终端令牌进入阅览室模式。
      </p>
      <Space className="admin-row">
        <Input
          aria-label="终端名称"
          placeholder="如：二楼阅览室 3 号机"
          value={name}
          maxLength={50}
          onChange={(e) => setName(e.target.value)}
        />
        <Button
          type="primary"
          disabled={!name.trim()}
          onClick={() =>
            void createTerminal(name.trim()).then(
              (terminal) => {
                setCreated(terminal);
                setName('');
                refresh();
              },
              () => undefined,
            )
          }
        >
          发放终端令牌
        </Button>
      </Space>
      <TableScroll label="终端列表">
        <Table<Terminal>
          rowKey="id"
          size="small"
          loading={list.isPending}
          dataSource={list.data?.records ?? []}
          pagination={false}
          columns={terminalColumns(refresh)}
        />
      </TableScroll>
      <ActivationLink created={created} onClose={() => setCreated(null)} />
    </div>
  );
}
