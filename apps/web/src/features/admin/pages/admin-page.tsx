import type { Paged } from '@guji/shared';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Button,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Progress,
  Result,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Tree,
} from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import {
  AUDIT_ACTION_LABELS,
  hasRole,
  type Classification,
  JOB_NAME_LABELS,
  jobTarget,
  JOB_STATUS_LABELS,
  type AuditEntry,
  type CreatedTerminal,
  type JobEntry,
  type JobStats,
  type ReservationDuration,
  type SiteSettings,
  type Terminal,
} from '@guji/shared';
import { api } from '../../../api/client.ts';
import { uploadWithProgress } from '../../../api/upload.ts';
import { siteQueryKey, useSiteSettings } from '../../../api/site.ts';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { toast } from '../../../components/toast.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useSession } from '../../account/queries.ts';
import { classNodes } from '../class-tree.ts';
import { CatalogueManager } from '../components/catalogue.tsx';
import { Dashboard } from '../components/dashboard.tsx';
import { Users } from '../components/users.tsx';
import { formatTime } from '../../../components/personal-list.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';

/** The console's tabs, in order; catalogue staff see the catalogue's, administrators all. */
const TABS: Array<{ key: string; label: string; admin: boolean; render: () => ReactNode }> = [
  { key: 'dashboard', label: '统计概览', admin: true, render: () => <Dashboard /> },
  { key: 'catalogue', label: '编目管理', admin: false, render: () => <CatalogueManager /> },
  { key: 'import', label: '批量导入', admin: false, render: () => <BulkImport /> },
  { key: 'classes', label: '分类字典', admin: false, render: () => <ClassDictionary /> },
  { key: 'site', label: '站点设置', admin: true, render: () => <SiteSettingsForm /> },
  { key: 'users', label: '用户管理', admin: true, render: () => <Users /> },
  { key: 'jobs', label: '任务监控', admin: true, render: () => <JobMonitor /> },
  { key: 'terminals', label: '阅览室', admin: true, render: () => <Terminals /> },
  { key: 'durations', label: '借阅时长', admin: true, render: () => <Durations /> },
  { key: 'sms', label: '短信发件箱', admin: true, render: () => <SmsOutbox /> },
  { key: 'audit', label: '审计日志', admin: true, render: () => <AuditLog /> },
];

/**
 * /Admin: the administration console (loaded only when opened): the dashboard, catalogue management,
 * bulk import, dictionaries, site settings, users, the job monitor, reading-room terminals, the SMS
 * outbox and the audit log. Administrators see every tab, catalogue staff the catalogue's; the tab is
 * in the address.
 */
export function AdminPage() {
  useDocumentTitle('管理后台');
  const user = useSession().data?.user;
  const [params] = useSearchParams();
  const nav = useRef<HTMLElement>(null);
  const current = params.get('tab');
  // On a phone the row of sections scrolls: keep the open one in view.
  useEffect(() => {
    nav.current?.querySelector('a.active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [current]);
  if (!user || !hasRole(user.roles, 'catalogAdmin')) {
    return <Result status="403" title="无权限访问" subTitle="管理后台仅向系统管理员和编目人员开放。" />;
  }
  const tabs = TABS.filter((t) => !t.admin || hasRole(user.roles, 'admin'));
  const tab = tabs.find((t) => t.key === params.get('tab')) ?? tabs[0]!;
  return (
    <div className="page admin-console">
      <Breadcrumbs second={{ title: '管理后台' }} />
      <h1 className="page-title">管理后台</h1>
      {/* Links, not a tab widget: on a phone they scroll sideways instead of folding into a menu. */}
      <nav aria-label="管理后台栏目" className="admin-tabs" ref={nav}>
        <ul>
          {tabs.map((t) => (
            <li key={t.key}>
              <Link
                to={`/Admin?tab=${t.key}`}
                aria-current={t.key === tab.key ? 'page' : undefined}
                className={t.key === tab.key ? 'active' : undefined}
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-label={tab.label} className="admin-tab-content">
        {tab.render()}
      </section>
    </div>
  );
}

function SiteSettingsForm() {
  const site = useSiteSettings();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (values: Partial<SiteSettings>) => api.put<SiteSettings>('/api/admin/site', values),
    onSuccess: (saved) => queryClient.setQueryData(siteQueryKey, saved),
  });
  if (!site.data) return null;
  return (
    <Form<SiteSettings>
      layout="vertical"
      className="admin-form"
      initialValues={site.data}
      onFinish={(values) =>
        void save.mutateAsync(values).then(
          () => toast.success('站点设置已保存'),
          () => undefined,
        )
      }
    >
      <Form.Item
        name="siteName"
        label="站点名称"
        rules={[{ required: true, whitespace: true, message: '请输入站点名称' }]}
      >
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="copyright" label="页脚版权信息">
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="filingNumber" label="备案号">
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="fundingNote" label="资助说明">
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="introduction" label="馆藏简介（首页）">
        <Input.TextArea rows={4} maxLength={5000} />
      </Form.Item>
      <Form.Item name="requireRealName" label="注册时填写真实姓名和身份证号" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name="timeZone"
        label="本馆时区（当日特权至此时区午夜）"
        rules={[{ required: true, message: '请输入时区' }]}
      >
        <Input maxLength={60} />
      </Form.Item>
      <Form.Item name="downloadMaxSide" label="下载图像最长边（像素）">
        <InputNumber min={500} max={10000} precision={0} />
      </Form.Item>
      <Form.Item name="downloadVolumePdf" label="允许整册下载 PDF" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="printPostEnabled" label="打印订单可邮寄" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="ownQuotaPages" label="每位用户自有古籍页数上限">
        <InputNumber min={0} precision={0} />
      </Form.Item>
      <Form.Item name="ownQuotaMb" label="每位用户自有古籍存储上限（MB）">
        <InputNumber min={0} precision={0} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        保存设置
      </Button>
    </Form>
  );
}

function JobMonitor() {
  const [status, setStatus] = useState<string | undefined>(undefined);
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const jobs = useQuery({
    queryKey: ['admin-jobs', status, page],
    queryFn: () =>
      api.get<Paged<JobEntry>>(`/api/admin/jobs?pageNum=${page}${status ? `&status=${status}` : ''}`),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  const stats = useQuery({
    queryKey: ['admin-jobs-stats'],
    queryFn: () => api.get<JobStats>('/api/admin/jobs/stats'),
    refetchInterval: 5000,
  });
  const act = (id: number, action: 'retry' | 'cancel') =>
    void api.post<{ message?: string }>(`/api/admin/jobs/${id}/${action}`).then(
      (result) => {
        toast.success(result.message ?? '');
        void queryClient.invalidateQueries({ queryKey: ['admin-jobs'] });
        void queryClient.invalidateQueries({ queryKey: ['admin-jobs-stats'] });
      },
      () => undefined,
    );
  return (
    <div>
      <p className="admin-stats" role="status">
        {Object.entries(JOB_STATUS_LABELS)
          .map(([key, label]) => `${label} ${stats.data?.counts[key] ?? 0}`)
          .join('　')}
        {'　'}近一小时完成：
        {Object.entries(JOB_NAME_LABELS)
          .map(([key, label]) => `${label} ${stats.data?.lastHour[key] ?? 0}`)
          .join('，')}
      </p>
      <Select
        allowClear
        placeholder="全部状态"
        aria-label="任务状态"
        style={{ width: 160, marginBottom: 12 }}
        value={status}
        onChange={(value: string | undefined) => {
          setStatus(value);
          setPage(1);
        }}
        options={Object.entries(JOB_STATUS_LABELS).map(([value, label]) => ({ value, label }))}
      />
      <TableScroll label="任务列表">
        <Table<JobEntry>
          rowKey="id"
          size="small"
          loading={jobs.isPending}
          dataSource={jobs.data?.records ?? []}
          pagination={{
            current: page,
            pageSize: 20,
            total: jobs.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPage,
          }}
          columns={[
            { title: '编号', dataIndex: 'id' },
            { title: '任务', dataIndex: 'name', render: (n: string) => JOB_NAME_LABELS[n] ?? n },
            { title: '对象', dataIndex: 'data', render: (d: unknown) => jobTarget(d) },
            {
              title: '状态',
              dataIndex: 'status',
              render: (s: string) => (
                <Tag color={s === 'failed' ? 'error' : s === 'succeeded' ? 'success' : 'processing'}>
                  {JOB_STATUS_LABELS[s] ?? s}
                </Tag>
              ),
            },
            { title: '尝试', key: 'attempts', render: (_, j) => `${j.attempts}/${j.maxAttempts}` },
            { title: '失败原因', dataIndex: 'lastError', render: (e: string | null) => e ?? '' },
            { title: '更新时间', dataIndex: 'updatedAt', render: (t: string) => formatTime(t) },
            {
              title: '操作',
              key: 'actions',
              render: (_, j) =>
                j.status === 'failed' ? (
                  <Button size="small" onClick={() => act(j.id, 'retry')}>
                    重试
                  </Button>
                ) : j.status === 'queued' ? (
                  <Button size="small" onClick={() => act(j.id, 'cancel')}>
                    取消
                  </Button>
                ) : null,
            },
          ]}
        />
      </TableScroll>
    </div>
  );
}

interface AddressList {
  cidrs: string[];
  fromEnvironment: boolean;
  clientIp: string;
  inReadingRoom: boolean;
}

/** The reading room's address ranges, one per line; the administrator's own address as a guide. */
function ReadingRoomAddresses() {
  const queryClient = useQueryClient();
  const addresses = useQuery({
    queryKey: ['admin-reading-room-addresses'],
    queryFn: () => api.get<AddressList>('/api/admin/reading-room/addresses'),
  });
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const value = text ?? addresses.data?.cidrs.join('\n') ?? '';
  const save = () => {
    setError(null);
    void api
      .put<{ message?: string }>(
        '/api/admin/reading-room/addresses',
        { cidrs: value.split(/[\n,，]/) },
        { quiet: true },
      )
      .then(
        (result) => {
          toast.success(result.message ?? '');
          setText(null);
          void queryClient.invalidateQueries({ queryKey: ['admin-reading-room-addresses'] });
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

function Terminals() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['admin-terminals'],
    queryFn: () => api.get<{ records: Terminal[] }>('/api/admin/terminals'),
  });
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedTerminal | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin-terminals'] });
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
            void api.post<CreatedTerminal>('/api/admin/terminals', { name: name.trim() }).then(
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
          columns={[
            { title: '名称', dataIndex: 'name' },
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
                    onConfirm={() =>
                      void api.del(`/api/admin/terminals/${t.id}`).then(refresh, () => undefined)
                    }
                  >
                    <Button size="small" danger>
                      吊销
                    </Button>
                  </Popconfirm>
                ),
            },
          ]}
        />
      </TableScroll>
      <Modal
        open={created !== null}
        title="终端令牌（只显示一次）"
        footer={null}
        onCancel={() => setCreated(null)}
      >
        <p>在该终端的浏览器中打开下面的地址，即进入阅览室模式：</p>
        <Input.TextArea
          readOnly
          rows={3}
          value={created ? `${window.location.origin}${created.activationPath}` : ''}
        />
      </Modal>
    </div>
  );
}

function Durations() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['reservation-durations'],
    queryFn: () => api.get<ReservationDuration[]>('/api/reservations/durations'),
  });
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
                  void api.put(`/api/admin/reservation-durations/${d.code}`, edits[d.code]).then(
                    () => {
                      toast.success('已保存');
                      setEdits((old) =>
                        Object.fromEntries(Object.entries(old).filter(([k]) => k !== d.code)),
                      );
                      void queryClient.invalidateQueries({ queryKey: ['reservation-durations'] });
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

function AuditLog() {
  const [action, setAction] = useState<string | undefined>(undefined);
  const [actor, setActor] = useState('');
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['admin-audit', action, actor, page],
    queryFn: () =>
      api.get<Paged<AuditEntry>>(
        `/api/admin/audit?pageNum=${page}${action ? `&action=${action}` : ''}${actor ? `&actor=${encodeURIComponent(actor)}` : ''}`,
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <div>
      <Space className="admin-row" wrap>
        <Select
          allowClear
          placeholder="全部操作"
          aria-label="操作类型"
          style={{ width: 180 }}
          value={action}
          onChange={(value: string | undefined) => {
            setAction(value);
            setPage(1);
          }}
          options={Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => ({ value, label }))}
        />
        <Input.Search
          aria-label="操作人"
          placeholder="操作人（登录名）"
          allowClear
          onSearch={(value) => {
            setActor(value.trim());
            setPage(1);
          }}
          style={{ width: 220 }}
        />
      </Space>
      <TableScroll label="审计日志列表">
        <Table<AuditEntry>
          rowKey="id"
          size="small"
          loading={query.isPending}
          dataSource={query.data?.records ?? []}
          pagination={{
            current: page,
            pageSize: 20,
            total: query.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPage,
          }}
          columns={[
            {
              title: '时间',
              dataIndex: 'createdAt',
              className: 'nowrap',
              render: (t: string) => formatTime(t),
            },
            { title: '操作人', dataIndex: 'actor', className: 'nowrap' },
            {
              title: '操作',
              dataIndex: 'action',
              className: 'nowrap',
              render: (a: string) => AUDIT_ACTION_LABELS[a] ?? a,
            },
            { title: '对象', dataIndex: 'target' },
            {
              title: '修改前',
              dataIndex: 'before',
              render: (v: unknown) => (
                <code className="audit-json" data-no-convert="">
                  {v === null ? '' : JSON.stringify(v)}
                </code>
              ),
            },
            {
              title: '修改后',
              dataIndex: 'after',
              render: (v: unknown) => (
                <code className="audit-json" data-no-convert="">
                  {v === null ? '' : JSON.stringify(v)}
                </code>
              ),
            },
          ]}
        />
      </TableScroll>
    </div>
  );
}

function SmsOutbox() {
  const [phone, setPhone] = useState('');
  const outbox = useQuery({
    queryKey: ['admin-sms', phone],
    queryFn: () =>
      api.get<{ records: Array<{ id: number; phone: string; text: string; createdAt: string }> }>(
        `/api/admin/sms-outbox?limit=100${phone ? `&phone=${encodeURIComponent(phone)}` : ''}`,
      ),
  });
  return (
    <div>
      <p className="admin-stats">开发用短信通道：验证码短信不实际发送，记录在此供调试。</p>
      <Input.Search
        className="admin-row"
        aria-label="按手机号筛选"
        placeholder="手机号"
        allowClear
        style={{ maxWidth: 240 }}
        onSearch={(value) => setPhone(value.trim())}
      />
      <TableScroll label="短信列表">
        <Table
          rowKey="id"
          size="small"
          loading={outbox.isPending}
          dataSource={outbox.data?.records ?? []}
          pagination={{ pageSize: 20, showSizeChanger: false }}
          columns={[
            {
              title: '时间',
              dataIndex: 'createdAt',
              className: 'nowrap',
              render: (t: string) => formatTime(t),
            },
            { title: '手机号', dataIndex: 'phone' },
            { title: '内容', dataIndex: 'text' },
          ]}
        />
      </TableScroll>
    </div>
  );
}

/**
 * 批量导入: a package zip (metadata.json or metadata.csv with image folders, docs/import.md) through
 * the catalogue ingest: the upload's progress, then the books made and the tiling and OCR jobs until
 * they are done.
 */
function BulkImport() {
  const input = useRef<HTMLInputElement>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [books, setBooks] = useState<Array<{ title: string; bookId: number; pages: number }> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stats = useQuery({
    queryKey: ['admin-jobs-stats'],
    queryFn: () => api.get<JobStats>('/api/admin/jobs/stats'),
    enabled: books !== null,
    refetchInterval: 2000,
  });
  const pending = (stats.data?.counts.queued ?? 0) + (stats.data?.counts.running ?? 0);
  return (
    <div className="admin-form">
      <p className="admin-stats">
        上传导入包（.zip：根目录下 metadata.json 或 metadata.csv，以及各卷图像目录）。同一 sourceKey
        再次导入会替换原书。
      </p>
      <input
        ref={input}
        type="file"
        hidden
        accept=".zip,application/zip"
        aria-label="导入包"
        disabled={percent !== null}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          setError(null);
          setBooks(null);
          setPercent(0);
          uploadWithProgress<{ books: Array<{ title: string; bookId: number; pages: number }> }>(
            '/api/admin/import',
            file,
            setPercent,
          ).then(
            (result) => {
              setPercent(null);
              setBooks(result.books);
              toast.success(`已导入 ${result.books.length} 部古籍`);
            },
            (failure: unknown) => {
              setPercent(null);
              setError(failure instanceof Error ? failure.message : '导入失败');
            },
          );
        }}
      />
      <Button
        icon={<UploadOutlined aria-hidden />}
        disabled={percent !== null}
        onClick={() => input.current?.click()}
      >
        选择导入包（.zip）
      </Button>
      {percent !== null && (
        <div role="status">
          <Progress percent={percent} status="active" />
          {percent >= 100 ? '正在检查并导入…' : '正在上传…'}
        </div>
      )}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      {books && (
        <div role="status" className="import-result">
          <ul>
            {books.map((b) => (
              <li key={b.bookId}>
                <Link to={`/SearchPage/${b.bookId}`}>{b.title}</Link>（{b.pages} 页）
              </li>
            ))}
          </ul>
          <p>{pending > 0 ? `后台处理（切图、识别）中：还有 ${pending} 项任务` : '后台处理已完成'}</p>
        </div>
      )}
    </div>
  );
}

/** 分类字典: the classification tree; add a class under the selected one, rename it, delete an unused one. */
function ClassDictionary() {
  const queryClient = useQueryClient();
  const tree = useQuery({
    queryKey: ['classifications'],
    queryFn: () => api.get<Classification[]>('/api/classifications'),
  });
  const [selected, setSelected] = useState<Classification | null>(null);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [rename, setRename] = useState('');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['classifications'] });
  const find = (nodes: Classification[], id: number): Classification | null => {
    for (const n of nodes) {
      if (n.dictionaryId === id) return n;
      const inner = find(n.children, id);
      if (inner) return inner;
    }
    return null;
  };
  return (
    <div className="class-dictionary">
      <Tree
        // Remounted with new data, so a class just added under a leaf shows expanded.
        key={tree.dataUpdatedAt}
        aria-label="分类树"
        defaultExpandAll
        treeData={classNodes(tree.data ?? [])}
        selectedKeys={selected ? [selected.dictionaryId] : []}
        onSelect={(keys) => {
          const node = keys.length > 0 ? find(tree.data ?? [], Number(keys[0])) : null;
          setSelected(node);
          setRename(node?.dictionaryName ?? '');
          setCode(node ? `${node.dictionaryValue}.` : '');
        }}
      />
      <div className="admin-form">
        <h2 className="personal-subtitle">
          {selected ? `在「${selected.dictionaryName}」下添加` : '添加顶级分类'}
        </h2>
        <Space wrap>
          <Input
            aria-label="分类代码"
            placeholder="代码，如 JING.LI"
            value={code}
            onChange={(e) => setCode(e.target.value.toUpperCase())}
          />
          <Input
            aria-label="分类名称"
            placeholder="名称，如 禮類"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <Button
            type="primary"
            onClick={() =>
              void api
                .post<{ message?: string }>('/api/admin/classifications', {
                  parentId: selected?.dictionaryId ?? null,
                  code: code.trim(),
                  name: name.trim(),
                })
                .then(
                  (r) => {
                    toast.success(r.message ?? '');
                    setName('');
                    refresh();
                  },
                  () => undefined,
                )
            }
          >
            添加
          </Button>
        </Space>
        {selected && (
          <>
            <h2 className="personal-subtitle">修改「{selected.dictionaryName}」</h2>
            <Space wrap>
              <Input aria-label="新名称" value={rename} onChange={(e) => setRename(e.target.value)} />
              <Button
                onClick={() =>
                  void api
                    .put<{ message?: string }>(`/api/admin/classifications/${selected.dictionaryId}`, {
                      name: rename.trim(),
                    })
                    .then(
                      (r) => {
                        toast.success(r.message ?? '');
                        refresh();
                      },
                      () => undefined,
                    )
                }
              >
                保存名称
              </Button>
              <Popconfirm
                title={`删除分类「${selected.dictionaryName}」？`}
                okText="删除"
                cancelText="取消"
                onConfirm={() =>
                  void api
                    .del<{ message?: string }>(`/api/admin/classifications/${selected.dictionaryId}`)
                    .then(
                      (r) => {
                        toast.success(r.message ?? '');
                        setSelected(null);
                        refresh();
                      },
                      () => undefined,
                    )
                }
              >
                <Button danger>删除分类</Button>
              </Popconfirm>
            </Space>
          </>
        )}
      </div>
    </div>
  );
}
