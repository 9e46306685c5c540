import { useState } from 'react';
import { Button, Input, Modal, Segmented } from 'antd';
import { Link } from 'react-router';
import { MSG, RESERVATION_STATUS, type Reservation } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { readerPath } from '../../../lib/reader-url.ts';
import { formatTime, PersonalList, usePageParam } from '../../../components/personal-list.tsx';
import { useReview, useReviewQueue } from '../queries.ts';
import { StatusTag } from './appointment-channel.tsx';
import { BookText, noConvert } from '../../../components/book-text.tsx';

const VIEWS = [
  { label: '待审核', value: '0,1' },
  { label: '已通过', value: '2' },
  { label: '已拒绝', value: '4' },
  { label: '已撤回', value: '5' },
];

/** The refusal in progress: which application, the reason typed, and the reason's problem. */
function useRefusal(review: ReturnType<typeof useReview>) {
  const [refusing, setRefusing] = useState<Reservation | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);

  const start = (r: Reservation) => {
    setRefusing(r);
    setReason('');
    setReasonError(null);
  };
  const changeReason = (value: string) => {
    setReason(value);
    setReasonError(null);
  };
  const refuse = () => {
    if (!refusing) return;
    if (reason.trim() === '') {
      setReasonError(MSG.refuseReasonRequired);
      return;
    }
    void review
      .mutateAsync({ id: refusing.id, action: 'refuse', reason: reason.trim() })
      .then(() => {
        toast.success(MSG.reservationRefused);
        setRefusing(null);
      })
      .catch(() => undefined);
  };
  const cancel = () => setRefusing(null);

  return { refusing, reason, reasonError, start, changeReason, refuse, cancel };
}

/** The dialog asking for the refusal's reason (required: the applicant sees it). */
function RefuseModal({ refusal, pending }: { refusal: ReturnType<typeof useRefusal>; pending: boolean }) {
  const { refusing, reason, reasonError } = refusal;
  return (
    <Modal
      title={`拒绝申请：${refusing?.title ?? ''}`}
      open={refusing !== null}
      okText="确认拒绝"
      cancelText="取消"
      okButtonProps={{ danger: true, loading: pending }}
      onOk={refusal.refuse}
      onCancel={refusal.cancel}
    >
      <label htmlFor="refuse-reason">拒绝原因</label>
      <Input.TextArea
        id="refuse-reason"
        rows={3}
        maxLength={200}
        value={reason}
        status={reasonError ? 'error' : undefined}
        onChange={(e) => refusal.changeReason(e.target.value)}
      />
      {reasonError && (
        <div className="field-error" role="alert">
          {reasonError}
        </div>
      )}
    </Modal>
  );
}

/** One application in the queue: book, applicant and reason, status, time, and the reviewer's actions. */
function AuditRow({
  r,
  onAct,
  onRefuse,
}: {
  r: Reservation;
  onAct: (action: 'take' | 'approve') => void;
  onRefuse: () => void;
}) {
  return (
    <>
      <div className="personal-book">
        <div>
          <Link to={`/SearchPage/${r.catalogId}`} className="personal-book-title" {...noConvert}>
            {r.title}
          </Link>
          <div className="personal-book-meta">
            索书号 <BookText>{r.callNumber}</BookText>
          </div>
        </div>
      </div>
      <div className="personal-detail">
        申请人 <BookText>{r.applicant}</BookText>；{r.durationLabel}
        {r.detailReason && (
          <>
            ；原因：<BookText>{r.detailReason}</BookText>
          </>
        )}
      </div>
      <div className="personal-status">
        <StatusTag status={r.auditStatus} />
        {r.refuseReason && (
          <span className="refuse-reason">
            拒绝原因：<BookText>{r.refuseReason}</BookText>
          </span>
        )}
      </div>
      <span className="personal-time">{formatTime(r.applyTime)}</span>
      <div className="personal-actions">
        <Link to={readerPath({ catalogId: r.catalogId })} className="ant-btn ant-btn-default">
          查看古籍
        </Link>
        {r.auditStatus === RESERVATION_STATUS.unaudited && (
          <Button onClick={() => onAct('take')}>开始审核</Button>
        )}
        {(r.auditStatus === RESERVATION_STATUS.unaudited ||
          r.auditStatus === RESERVATION_STATUS.reviewing) && (
          <>
            <Button type="primary" onClick={() => onAct('approve')}>
              通过
            </Button>
            <Button danger onClick={onRefuse}>
              拒绝
            </Button>
          </>
        )}
      </div>
    </>
  );
}

/**
 * 预约审核 (reviewers): the queue of applications, oldest first; take one under review, open the book,
 * approve, or refuse with a required reason the applicant then sees.
 */
export function AppointmentAuditChannel() {
  const [view, setView] = useState('0,1');
  const [page, setPage] = usePageParam();
  const queue = useReviewQueue(view, page);
  const review = useReview();
  const refusal = useRefusal(review);

  const act = (r: Reservation, action: 'take' | 'approve') =>
    review
      .mutateAsync({ id: r.id, action })
      .then(() => toast.success(action === 'approve' ? MSG.reservationApproved : '已开始审核'))
      .catch(() => undefined);

  return (
    <div className="appointment-audit">
      <Segmented
        options={VIEWS}
        value={view}
        onChange={(value) => {
          setView(value);
          setPage(1);
        }}
      />
      <PersonalList
        query={queue}
        label="预约申请列表"
        empty="没有需要处理的申请。"
        onPage={setPage}
        rowKey={(r) => r.id}
        row={(r) => (
          <AuditRow r={r} onAct={(action) => void act(r, action)} onRefuse={() => refusal.start(r)} />
        )}
      />
      <RefuseModal refusal={refusal} pending={review.isPending} />
    </div>
  );
}
