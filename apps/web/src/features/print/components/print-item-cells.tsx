import { Tag } from 'antd';
import { Link } from 'react-router';
import {
  EXTRACT_LABELS,
  PAY_STATUS_LABELS,
  PAYMENT_LABELS,
  PRINT_STATUS_LABELS,
  PAY_STATUS,
  PRINT_STATUS,
  yuan,
  type PrintItem,
} from '@guji/shared';
import { readerPath } from '../../../lib/reader-url.ts';
import { BookText, noConvert } from '../../../components/book-text.tsx';

/** Thumbnail, title (to the page in the reader), call number, volume, page and directory of an item. */
export function PrintItemCell({ item }: { item: PrintItem }) {
  return (
    <div className="print-item">
      <img
        src={item.filePath}
        alt={`《${item.title}》第 ${item.pageNumber} 页`}
        width={56}
        height={56}
        loading="lazy"
      />
      <div>
        <Link
          to={readerPath({ catalogId: item.catalogId, imageId: item.imageId })}
          className="personal-book-title"
          {...noConvert}
        >
          {item.title}
        </Link>
        <div className="personal-book-meta">
          <BookText>{item.callNumber ?? ''}</BookText> <BookText>{item.volumeName}</BookText> 第{' '}
          {item.pageNumber} 页
          {item.name && (
            <>
              {' · '}
              <BookText>{item.name}</BookText>
            </>
          )}
        </div>
      </div>
    </div>
  );
}

export function PayTag({ status }: { status: number }) {
  const color =
    status === PAY_STATUS.paid ? 'success' : status === PAY_STATUS.refunded ? 'default' : 'warning';
  return <Tag color={color}>{PAY_STATUS_LABELS[status]}</Tag>;
}

export function PrintTag({ status }: { status: number }) {
  return (
    <Tag color={status === PRINT_STATUS.printed ? 'blue' : 'default'}>{PRINT_STATUS_LABELS[status]}</Tag>
  );
}

export const money = (fen: number) => `¥${yuan(fen)}`;
export const paymentLabel = (payment: number | null) => (payment === null ? '—' : PAYMENT_LABELS[payment]);
export const extractLabel = (extract: number | null) => (extract === null ? '—' : EXTRACT_LABELS[extract]);
