import { useState } from 'react';
import { Button, Empty, Form, Input, Modal, Segmented, Spin } from 'antd';
import { Link } from 'react-router';
import { MSG, type OwnBook, OWN_STATUS } from '@guji/shared';
import { toast } from '../../components/toast.ts';
import { readerPath } from '../../lib/reader-url.ts';
import { useReviewBooks, useReviewBook } from './queries.ts';
import { BookText } from '../../components/book-text.tsx';
import { BookFieldItems, blankToNull, type BookFields } from '../catalog/index.ts';

/** The two lists a reviewer sees: books waiting for review, and those already public. */
type ReviewStatus = typeof OWN_STATUS.reviewing | typeof OWN_STATUS.published;

/**
 * 出版审核 (reviewers): users' books submitted for publication; open one in the reader, approve it
 * (public and searchable) or refuse with a reason; withdraw a public one.
 */
export function OwnBookAuditChannel() {
  const [status, setStatus] = useState<ReviewStatus>(OWN_STATUS.reviewing);
  const books = useReviewBooks(status);
  const review = useReviewBook();
  const [refusing, setRefusing] = useState<OwnBook | null>(null);
  const [publishing, setPublishing] = useState<OwnBook | null>(null);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const action = status === OWN_STATUS.reviewing ? 'refuse' : 'withdraw';

  const confirm = () => {
    if (!refusing) return;
    if (!reason.trim()) {
      setProblem(MSG.refuseReasonRequired);
      return;
    }
    void review.mutateAsync({ id: refusing.catalogId, action, reason: reason.trim() }).then(
      () => {
        toast.success(action === 'refuse' ? MSG.reservationRefused : '已撤回发布');
        setRefusing(null);
      },
      () => undefined,
    );
  };

  return (
    <div className="own-audit">
      <Segmented
        value={status}
        onChange={(value) =>
          setStatus(value === OWN_STATUS.published ? OWN_STATUS.published : OWN_STATUS.reviewing)
        }
        options={[
          { label: '待审核', value: OWN_STATUS.reviewing },
          { label: '已公开', value: OWN_STATUS.published },
        ]}
      />
      {books.isPending ? (
        <Spin />
      ) : (books.data ?? []).length === 0 ? (
        <Empty
          description={status === OWN_STATUS.reviewing ? '没有待审核的古籍。' : '没有已公开的用户古籍。'}
        />
      ) : (
        <ul className="personal-rows" aria-label="用户古籍">
          {books.data!.map((book) => (
            <ReviewBookRow
              key={book.catalogId}
              book={book}
              status={status}
              onPublish={() => setPublishing(book)}
              onRefuse={() => {
                setRefusing(book);
                setReason('');
                setProblem(null);
              }}
            />
          ))}
        </ul>
      )}
      {publishing && <PublishModal book={publishing} onClose={() => setPublishing(null)} />}
      <RefuseModal
        book={refusing}
        action={action}
        reason={reason}
        problem={problem}
        loading={review.isPending}
        onReasonChange={(value) => {
          setReason(value);
          setProblem(null);
        }}
        onOk={confirm}
        onCancel={() => setRefusing(null)}
      />
    </div>
  );
}

/** One submitted (or public) book: who gave it, its facts, and view, approve and refuse or withdraw. */
function ReviewBookRow({
  book,
  status,
  onPublish,
  onRefuse,
}: {
  book: OwnBook;
  status: ReviewStatus;
  onPublish: () => void;
  onRefuse: () => void;
}) {
  return (
    <li className="personal-row">
      <div className="personal-book">
        <div>
          <BookText className="personal-book-title">{book.title}</BookText>
          <div className="personal-book-meta">
            <BookText>{book.owner}</BookText> · <BookText>{book.author}</BookText> ·{' '}
            <BookText>{book.publishDynasty}</BookText> <BookText>{book.editionType}</BookText> ·{' '}
            {book.pageCount} 页
          </div>
        </div>
      </div>
      <div className="personal-actions">
        {(status === OWN_STATUS.reviewing || status === OWN_STATUS.published) && (
          <Link to={readerPath({ catalogId: book.catalogId })} className="ant-btn ant-btn-default">
            查看
          </Link>
        )}
        {status === OWN_STATUS.reviewing && (
          <Button type="primary" onClick={onPublish}>
            通过
          </Button>
        )}
        <Button danger onClick={onRefuse}>
          {status === OWN_STATUS.reviewing ? '拒绝' : '撤回发布'}
        </Button>
      </div>
    </li>
  );
}

/** Asks the reason for refusing a submitted book, or for withdrawing a public one; `book` null keeps it closed. */
function RefuseModal({
  book,
  action,
  reason,
  problem,
  loading,
  onReasonChange,
  onOk,
  onCancel,
}: {
  book: OwnBook | null;
  action: 'refuse' | 'withdraw';
  reason: string;
  problem: string | null;
  loading: boolean;
  onReasonChange: (reason: string) => void;
  onOk: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal
      open={book !== null}
      title={`${action === 'refuse' ? '拒绝' : '撤回'}：${book?.title ?? ''}`}
      okText="确认"
      cancelText="取消"
      okButtonProps={{ danger: true, loading }}
      onOk={onOk}
      onCancel={onCancel}
    >
      <label htmlFor="own-refuse-reason">原因</label>
      <Input.TextArea
        id="own-refuse-reason"
        rows={3}
        maxLength={200}
        value={reason}
        onChange={(e) => onReasonChange(e.target.value)}
      />
      {problem && (
        <div className="field-error" role="alert">
          {problem}
        </div>
      )}
    </Modal>
  );
}

/** Publishing a reader's book: the library gives it a call number and a class as it goes into the catalogue. */
function PublishModal({ book, onClose }: { book: OwnBook; onClose: () => void }) {
  const [form] = Form.useForm<Pick<BookFields, 'callNumber' | 'classCode'>>();
  const review = useReviewBook();
  return (
    <Modal
      open
      title={
        <>
          发布：<BookText>{book.title}</BookText>
        </>
      }
      okText="通过并发布"
      cancelText="取消"
      okButtonProps={{ loading: review.isPending }}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <p>发布后本书公开显示并可检索。请为它著录本馆的索书号和分类（可稍后在编目管理中修改）。</p>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ callNumber: book.callNumber, classCode: book.classCode ?? undefined }}
        onFinish={(values) =>
          void review
            .mutateAsync({
              id: book.catalogId,
              action: 'approve',
              record: { callNumber: blankToNull(values.callNumber), classCode: values.classCode ?? null },
            })
            .then(
              () => {
                toast.success(MSG.ownPublished);
                onClose();
              },
              () => undefined,
            )
        }
      >
        <BookFieldItems only={['callNumber', 'classCode']} />
      </Form>
    </Modal>
  );
}
