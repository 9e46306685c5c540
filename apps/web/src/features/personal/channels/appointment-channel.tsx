import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { AutoComplete, Button, Form, Input, Popconfirm, Select, Tag } from 'antd';
import {
  LONG_DURATION,
  MSG,
  PERSONAL_LIMITS,
  RESERVATION_STATUS,
  RESERVATION_STATUS_LABELS,
  type CallNumberMatch,
  type Reservation,
} from '@guji/shared';
import { serverMessage } from '../../../api/client.ts';
import { toast } from '../../../components/toast.ts';
import { formatTime, PersonalList, usePageParam } from '../../../components/personal-list.tsx';
import {
  useApply,
  useCallNumberLookup,
  useDurations,
  useMyReservations,
  usePersonalMutation,
  withdrawReservation,
} from '../queries.ts';
import { BookText } from '../../../components/book-text.tsx';
import { appointmentBookFrom } from '../appointment-link.ts';

interface ApplyFields {
  callNumber: string;
  title: string;
  applyDays: string;
  detailReason?: string;
}

const STATUS_COLOURS: Record<number, string> = {
  0: 'default',
  1: 'processing',
  2: 'success',
  4: 'error',
  5: 'default',
};

/** An application's status as a coloured tag, for the reader's list and the reviewers' queue. */
export function StatusTag({ status }: { status: number }) {
  return <Tag color={STATUS_COLOURS[status]}>{RESERVATION_STATUS_LABELS[status] ?? status}</Tag>;
}

const undecided = (r: Reservation) =>
  r.auditStatus === RESERVATION_STATUS.unaudited || r.auditStatus === RESERVATION_STATUS.reviewing;

/** The call-number suggestions: each match shows its call number and title, and carries the title. */
const callNumberOptions = (matches: CallNumberMatch[]) =>
  matches.map((m) => ({
    value: m.callNumber,
    label: (
      <BookText>
        {m.callNumber} · {m.title}
      </BookText>
    ),
    title: m.title,
  }));

/** The reason field: required (and reviewed within a working day) only for the longer duration. */
function ReasonItem({ long }: { long: boolean }) {
  return (
    <Form.Item
      name="detailReason"
      label="详细原因"
      dependencies={['applyDays']}
      rules={[
        {
          required: long,
          whitespace: true,
          message: MSG.reservationReasonRequired,
        },
      ]}
      extra={long ? '较长时长须经一个工作日审核' : '当日阅览自动审核通过'}
    >
      <Input.TextArea rows={3} maxLength={PERSONAL_LIMITS.reservationReasonMax} showCount />
    </Form.Item>
  );
}

/**
 * The application form: call number (typing looks up matching titles), title, duration, reason; after a
 * successful application it shows the server's message and tells the channel (which returns to page 1).
 */
function ApplyForm({ onApplied }: { onApplied: () => void }) {
  const [form] = Form.useForm<ApplyFields>();
  // Opened from a book the reader may not read yet (申请阅览): the form starts with that book.
  const [search] = useSearchParams();
  const [fromBook] = useState(() => appointmentBookFrom(search));
  const callNumber = Form.useWatch('callNumber', form) ?? '';
  const applyDays = Form.useWatch('applyDays', form);
  const matches = useCallNumberLookup(callNumber);
  const durations = useDurations();
  const apply = useApply();
  const [lastMessage, setLastMessage] = useState<string | null>(null);

  const submit = (values: ApplyFields) =>
    void apply
      .mutateAsync({ ...values, detailReason: values.detailReason?.trim() ?? '' })
      .then((result) => {
        toast.success(result.message);
        setLastMessage(result.message);
        form.resetFields();
        onApplied();
      })
      .catch(() => undefined);

  return (
    <Form<ApplyFields>
      form={form}
      layout="vertical"
      className="appointment-form"
      onFinish={submit}
      requiredMark
      initialValues={fromBook ?? undefined}
    >
      <Form.Item
        name="callNumber"
        label="索书号"
        rules={[{ required: true, whitespace: true, message: MSG.reservationCallNumberRequired }]}
      >
        <AutoComplete
          options={callNumberOptions(matches.data ?? [])}
          onSelect={(_value, option: { title?: string }) => form.setFieldValue('title', option.title)}
          placeholder="输入索书号，选择匹配的书目"
          aria-label="索书号"
        />
      </Form.Item>
      <Form.Item
        name="title"
        label="书名"
        rules={[{ required: true, whitespace: true, message: MSG.reservationTitleRequired }]}
      >
        <Input placeholder="选择索书号后自动填入" maxLength={200} />
      </Form.Item>
      <Form.Item
        name="applyDays"
        label="借阅时长"
        rules={[{ required: true, message: MSG.reservationDurationRequired }]}
      >
        <Select
          placeholder="请选择"
          aria-label="借阅时长"
          options={(durations.data ?? []).map((d) => ({ value: d.code, label: d.label }))}
        />
      </Form.Item>
      <ReasonItem long={applyDays === LONG_DURATION} />
      <Button type="primary" htmlType="submit" loading={apply.isPending}>
        提交申请
      </Button>
      {lastMessage && (
        <p className="appointment-result" role="status">
          {lastMessage}
        </p>
      )}
    </Form>
  );
}

/** One of the reader's applications: book, duration and reason, status, time, and withdraw while undecided. */
function MyApplicationRow({ r, onWithdraw }: { r: Reservation; onWithdraw: () => void }) {
  return (
    <>
      <div className="personal-book">
        <div>
          <BookText className="personal-book-title">{r.title}</BookText>
          <div className="personal-book-meta">
            索书号 <BookText>{r.callNumber}</BookText>
          </div>
        </div>
      </div>
      <div className="personal-detail">
        {r.durationLabel}
        {r.detailReason && (
          <>
            ：<BookText>{r.detailReason}</BookText>
          </>
        )}
      </div>
      <div className="personal-status">
        <StatusTag status={r.auditStatus} />
        {r.auditStatus === RESERVATION_STATUS.refused && r.refuseReason && (
          <span className="refuse-reason">
            拒绝原因：<BookText>{r.refuseReason}</BookText>
          </span>
        )}
        {r.auditStatus === RESERVATION_STATUS.passed && r.expiresAt && (
          <span>有效期至 {formatTime(r.expiresAt)}</span>
        )}
      </div>
      <span className="personal-time">申请于 {formatTime(r.applyTime)}</span>
      <div className="personal-actions">
        {undecided(r) && (
          <Popconfirm title="撤回这条申请？" okText="撤回" cancelText="取消" onConfirm={onWithdraw}>
            <Button>撤回</Button>
          </Popconfirm>
        )}
      </div>
    </>
  );
}

/**
 * 预约申请: apply for time-limited access to a book by call number (typing it looks up matching
 * titles), duration from the dictionary, a reason required for the longer one; the list of one's
 * applications with their status, the refusal reason, and withdraw while undecided.
 */
export function AppointmentChannel() {
  const [page, setPage] = usePageParam();
  const list = useMyReservations(page);
  const withdraw = usePersonalMutation(withdrawReservation);

  const withdrawOne = (id: number) =>
    void withdraw.mutateAsync(id).then(
      () => toast.success(MSG.reservationWithdrawn),
      (error: unknown) => serverMessage(error),
    );

  return (
    <div className="appointment">
      <ApplyForm onApplied={() => setPage(1)} />

      <h2 className="personal-subtitle">我的申请</h2>
      <PersonalList
        query={list}
        label="我的申请"
        empty="还没有预约申请。"
        onPage={setPage}
        rowKey={(r) => r.id}
        row={(r) => <MyApplicationRow r={r} onWithdraw={() => withdrawOne(r.id)} />}
      />
    </div>
  );
}
