import { Tag } from 'antd';
import { BookText } from '../../../components/book-text.tsx';

/** Whether the reader asked for an invoice, and its title as they typed it (the printer encloses one). */
export function InvoiceNote({ title }: { title: string | null }) {
  if (title === null) return <span className="desk-muted">不需要发票</span>;
  return (
    <span className="desk-invoice">
      <Tag className="desk-invoice-tag">需开发票</Tag>
      <BookText>{title}</BookText>
    </span>
  );
}
