import { Button, Checkbox, Popconfirm, Tag } from 'antd';
import { Link } from 'react-router';
import { OWN_STATUS_LABELS, type OwnBook, OWN_STATUS } from '@guji/shared';
import { BookCover } from '../../../components/book-cover.tsx';
import { BookText } from '../../../components/book-text.tsx';

const STATUS_COLOURS: Record<string, string> = {
  '0': 'default',
  '1': 'processing',
  '2': 'success',
  '3': 'error',
};

/** What the owner can do with one book of the list; the page runs each (and its toast). */
interface OwnBookHandlers {
  onEdit: () => void;
  onUnpublish: () => void;
  onRemove: () => void;
}

/** One of the owner's books: its selection for submitting, cover, facts, review state and actions. */
export function OwnBookRow({
  book,
  checked,
  onCheck,
  ...handlers
}: { book: OwnBook; checked: boolean; onCheck: (checked: boolean) => void } & OwnBookHandlers) {
  return (
    <li className="own-row">
      <Checkbox
        aria-label={`选择《${book.title}》`}
        checked={checked}
        // Only books not submitted yet, or refused, can be submitted.
        disabled={book.auditStatus === OWN_STATUS.reviewing || book.auditStatus === OWN_STATUS.published}
        onChange={(e) => onCheck(e.target.checked)}
      />
      <BookCover title={book.title} coverUrl={book.coverUrl} width={64} height={64} />
      <div className="own-info">
        <BookText className="personal-book-title">{book.title}</BookText>
        <div className="personal-book-meta">
          <BookText>{book.author}</BookText> · <BookText>{book.publishDynasty}</BookText>{' '}
          <BookText>{book.editionType}</BookText> · <BookText>{book.actualVolume ?? '—'}</BookText> 卷 ·{' '}
          {book.volumeCount} 册 {book.pageCount} 页
        </div>
        <div className="personal-status">
          <Tag color={STATUS_COLOURS[book.auditStatus]}>{OWN_STATUS_LABELS[book.auditStatus]}</Tag>
          {book.auditStatus === OWN_STATUS.refused && book.refuseReason && (
            <span className="refuse-reason">
              原因：<BookText>{book.refuseReason}</BookText>
            </span>
          )}
        </div>
      </div>
      <OwnBookActions book={book} {...handlers} />
    </li>
  );
}

/** A book's volumes link, edit, withdraw (under review or published) and delete, each where allowed. */
function OwnBookActions({ book, onEdit, onUnpublish, onRemove }: { book: OwnBook } & OwnBookHandlers) {
  return (
    <div className="personal-actions">
      <Link
        to={`/FenCe/${book.catalogId}?gjtitle=${encodeURIComponent(book.title)}`}
        className="ant-btn ant-btn-default"
      >
        卷册管理
      </Link>
      {/* Under review or published a book is frozen; withdrawing it makes it a draft again. */}
      <Button
        disabled={book.auditStatus === OWN_STATUS.reviewing || book.auditStatus === OWN_STATUS.published}
        onClick={onEdit}
      >
        编辑
      </Button>
      {(book.auditStatus === OWN_STATUS.reviewing || book.auditStatus === OWN_STATUS.published) && (
        <Popconfirm
          title={`撤回《${book.title}》？撤回后不再公开，修改后需重新提交审核。`}
          okText="撤回"
          cancelText="取消"
          onConfirm={onUnpublish}
        >
          <Button>{book.auditStatus === OWN_STATUS.published ? '撤回出版' : '撤回审核'}</Button>
        </Popconfirm>
      )}
      <Popconfirm
        title={`删除《${book.title}》及其全部卷册和页面？`}
        okText="删除"
        cancelText="取消"
        onConfirm={onRemove}
      >
        {/* A published book is withdrawn before it can be deleted (the server refuses it too). */}
        <Button danger disabled={book.auditStatus === OWN_STATUS.published}>
          删除
        </Button>
      </Popconfirm>
    </div>
  );
}
