import { useState } from 'react';
import { Button, Modal } from 'antd';
import { CopyOutlined, DownloadOutlined, FileTextOutlined } from '@ant-design/icons';
import type { BookDetail } from '@guji/shared';
import { useSiteSettings } from '../../../api/site.ts';
import { noConvert } from '../../../components/book-text.tsx';
import { toast } from '../../../components/toast.ts';
import { bookCitationOf, citationExports } from '../../reader/index.ts';
import '../citation.css';

/**
 * 引用: a book's citation to copy (〔朝代〕作者：《書名》，版本，the permalink and the day) and its
 * downloads for reference managers (RIS, BibTeX, CSL-JSON). The page itself carries the citation tags
 * Zotero's browser connector reads (served with the page, features/catalog/citation-page.ts).
 */
export function BookCitation({ book }: { book: BookDetail }) {
  const [open, setOpen] = useState(false);
  const [date, setDate] = useState(() => new Date());
  const siteName = useSiteSettings().data?.siteName ?? document.title;
  const text = bookCitationOf({ siteName, origin: window.location.origin, book, date });
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => toast.success('引用已复制'),
      () => toast.error('无法写入剪贴板，请手动复制：' + text),
    );
  return (
    <>
      <Button
        size="small"
        icon={<FileTextOutlined aria-hidden />}
        onClick={() => {
          // The citation carries the day it is made.
          setDate(new Date());
          setOpen(true);
        }}
      >
        引用 / 导出
      </Button>
      <Modal
        open={open}
        title="引用本书"
        footer={null}
        onCancel={() => setOpen(false)}
        className="book-citation-modal"
        width={560}
      >
        <h3 className="book-citation-heading" id="book-citation-text-title">
          引文
        </h3>
        <p className="book-citation-text" aria-labelledby="book-citation-text-title" {...noConvert}>
          {text}
        </p>
        <Button type="primary" icon={<CopyOutlined aria-hidden />} onClick={() => void copy()}>
          复制引用
        </Button>
        <h3 className="book-citation-heading">导出到文献管理软件</h3>
        <ul className="book-citation-exports">
          {citationExports(book.catalogId).map((item) => (
            <li key={item.format}>
              <a className="ant-btn ant-btn-default" href={item.href} download>
                <DownloadOutlined aria-hidden /> 下载 {item.label}
              </a>
              <span className="book-citation-hint">{item.hint}</span>
            </li>
          ))}
        </ul>
        <p className="book-citation-note">
          本页带有 Zotero 等软件可识别的书目信息，也可用浏览器的 Zotero
          插件直接保存。引用某一页时，请在阅读器中使用「复制引用」。
        </p>
      </Modal>
    </>
  );
}
