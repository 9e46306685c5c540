import { useState } from 'react';
import { Button, Empty, Input, Modal, Pagination, Segmented, Space, Tag } from 'antd';
import { Link } from 'react-router';
import { MSG, type CorrectionStatus, type OcrPoints, type QueuedCorrection } from '@guji/shared';
import { BookText } from '../../../components/book-text.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { formatTime } from '../../../components/personal-list.tsx';
import { toast } from '../../../components/toast.ts';
import { readerPath } from '../../../lib/reader-url.ts';
import { useCorrectionQueue, useDecideCorrection } from '../queries.ts';

const STATUSES: { value: CorrectionStatus; label: string }[] = [
  { value: 'pending', label: '待审核' },
  { value: 'accepted', label: '已采纳' },
  { value: 'refused', label: '未采纳' },
];

/**
 * The part of the page around the corrected characters, as an IIIF region: a character's width either
 * side and two characters' height above and below, so the reviewer reads them in their column; and
 * where the characters lie in it, in percent, to mark them.
 */
export function cropOf(imageId: number, box: OcrPoints) {
  const size = box.right - box.left;
  const x = Math.max(0, Math.round(box.left - size));
  const y = Math.max(0, Math.round(box.top - 2 * size));
  const w = Math.round(box.right + size) - x;
  const h = Math.round(box.bottom + 2 * size) - y;
  const percent = (value: number, of: number) => `${((value / of) * 100).toFixed(2)}%`;
  return {
    src: `/iiif/3/${imageId}/${x},${y},${w},${h}/!240,320/0/default.jpg`,
    aspectRatio: `${w} / ${h}`,
    mark: {
      left: percent(box.left - x, w),
      top: percent(box.top - y, h),
      width: percent(box.right - box.left, w),
      height: percent(box.bottom - box.top, h),
    },
  };
}

/** The characters' place on the page, cut out and marked (a crop past the image's edge is clipped by the server). */
function Crop({ correction: c }: { correction: QueuedCorrection }) {
  if (!c.box) return <div className="correction-crop" />;
  const crop = cropOf(c.imageId, c.box);
  return (
    <div className="correction-crop" style={{ aspectRatio: crop.aspectRatio }}>
      <img src={crop.src} alt={`第 ${c.place.pageNumber} 页第 ${c.line + 1} 列局部`} loading="lazy" />
      <span className="correction-mark" style={crop.mark} aria-hidden />
    </div>
  );
}

export interface CorrectionQueueProps {
  /** Only this page's corrections (the proofreading page's panel). */
  imageId?: number;
  /** Accepting is held back (the proofreader has unsaved changes that a new version would replace). */
  acceptBlocked?: string | null;
}

/**
 * Readers' corrections for catalogue staff (issue 32 part 5): pending ones oldest first, each with the
 * part of the page it concerns beside it, the characters as read and as proposed, the reader's note,
 * and 采纳 (a new OCR version credited to the reader) or 不予采纳 (with a reason the reader sees).
 */
export function CorrectionQueue({ imageId, acceptBlocked = null }: CorrectionQueueProps) {
  const [status, setStatus] = useState<CorrectionStatus>('pending');
  const [pageNum, setPageNum] = useState(1);
  const queue = useCorrectionQueue(status, imageId ?? null, pageNum);
  const [refusing, setRefusing] = useState<QueuedCorrection | null>(null);

  const records = queue.data?.records ?? [];
  return (
    <section className="correction-queue" aria-label={imageId ? '本页的读者纠错' : '读者纠错'}>
      <Segmented<CorrectionStatus>
        aria-label="纠错状态"
        options={STATUSES}
        value={status}
        onChange={(next) => {
          setStatus(next);
          setPageNum(1);
        }}
      />
      {queue.isPending ? (
        <PageLoading />
      ) : records.length === 0 ? (
        <Empty description={status === 'pending' ? '没有待审核的纠错' : MSG.noData} />
      ) : (
        <ul className="correction-list">
          {records.map((c) => (
            <CorrectionItem
              key={c.id}
              correction={c}
              acceptBlocked={acceptBlocked}
              onRefuse={() => setRefusing(c)}
            />
          ))}
        </ul>
      )}
      {(queue.data?.total ?? 0) > 10 && (
        <Pagination
          current={pageNum}
          total={queue.data?.total ?? 0}
          pageSize={10}
          showSizeChanger={false}
          onChange={setPageNum}
        />
      )}
      {refusing && <RefuseDialog correction={refusing} onClose={() => setRefusing(null)} />}
    </section>
  );
}

function CorrectionItem({
  correction: c,
  acceptBlocked,
  onRefuse,
}: {
  correction: QueuedCorrection;
  acceptBlocked: string | null;
  onRefuse: () => void;
}) {
  const decide = useDecideCorrection();
  const accept = () =>
    decide.mutate(
      { id: c.id, accept: true },
      {
        onSuccess: (done) =>
          toast.success(
            done.version != null
              ? `${MSG.correctionAccepted}（第 ${done.version} 版）`
              : MSG.correctionAccepted,
          ),
      },
    );
  const place = c.place;
  return (
    <li className="correction-item" aria-label={`纠错 ${c.original}`}>
      <Crop correction={c} />
      <div className="correction-body">
        <CorrectionChange correction={c} />
        {c.note && (
          <p className="correction-note">
            说明：<BookText>{c.note}</BookText>
          </p>
        )}
        <p className="correction-meta">
          《<BookText>{place.title}</BookText>》<BookText>{place.volumeName}</BookText> 第 {place.pageNumber}{' '}
          页 · 第 {c.line + 1} 列第 {c.start + 1} 字 · <BookText>{c.proposer}</BookText> 提出于{' '}
          {formatTime(c.createdAt)}
        </p>
        <CorrectionDecision correction={c} />
        <Space wrap className="correction-actions">
          <Link
            to={readerPath({ catalogId: place.catalogId, fascicleId: place.fascicleId, imageId: c.imageId })}
          >
            阅读本页
          </Link>
          <Link to={`/OCRPage?imgid=${c.imageId}`}>校对本页</Link>
          {c.status === 'pending' && (
            <>
              <Button
                type="primary"
                onClick={accept}
                loading={decide.isPending}
                disabled={acceptBlocked != null}
                title={acceptBlocked ?? undefined}
              >
                {c.proposed ? '采纳' : '已处理'}
              </Button>
              <Button onClick={onRefuse}>不予采纳</Button>
            </>
          )}
        </Space>
      </div>
    </li>
  );
}

/** The characters as read and as proposed (or only marked as wrong). */
function CorrectionChange({ correction: c }: { correction: QueuedCorrection }) {
  return (
    <p className="correction-change">
      {c.proposed ? (
        <>
          <BookText className="correction-from">{c.original}</BookText>
          <span aria-hidden> → </span>
          <BookText className="correction-to" aria-label={`改为 ${c.proposed}`}>
            {c.proposed}
          </BookText>
        </>
      ) : (
        <>
          <BookText>{c.original}</BookText> <Tag>标记有误</Tag>
        </>
      )}
    </p>
  );
}

/** How a decided correction ended: by whom, in which version, and why it was refused. */
function CorrectionDecision({ correction: c }: { correction: QueuedCorrection }) {
  if (c.status === 'pending') return null;
  return (
    <p className="correction-meta">
      {c.status === 'accepted' ? '已采纳' : '未采纳'}
      {c.reviewer && (
        <>
          （<BookText>{c.reviewer}</BookText>）
        </>
      )}
      {c.version != null && `，第 ${c.version} 版`}
      {c.refuseReason && (
        <>
          ，原因：<BookText>{c.refuseReason}</BookText>
        </>
      )}
    </p>
  );
}

function RefuseDialog({ correction, onClose }: { correction: QueuedCorrection; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const decide = useDecideCorrection();
  const submit = () => {
    if (reason.trim() === '') {
      setProblem(MSG.refuseReasonRequired);
      return;
    }
    decide.mutate(
      { id: correction.id, accept: false, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success(MSG.correctionRefused);
          onClose();
        },
      },
    );
  };
  return (
    <Modal
      open
      title={
        <>
          不予采纳「<BookText>{correction.original}</BookText>」
        </>
      }
      okText="确定"
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      confirmLoading={decide.isPending}
    >
      <Input.TextArea
        aria-label="原因"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        maxLength={200}
        showCount
        rows={3}
        placeholder="写给提出者的原因，如：原刻即如此"
        status={problem ? 'error' : undefined}
      />
      {problem && (
        <p className="correction-problem" role="alert">
          {problem}
        </p>
      )}
    </Modal>
  );
}
