import type { ReactNode } from 'react';
import { Empty, Pagination, Tag } from 'antd';
import { Link } from 'react-router';
import { MSG, type BookPage, type BookSummary } from '@guji/shared';
import { BookCover } from '../../../components/book-cover.tsx';
import { noConvert } from '../../../components/book-text.tsx';

/**
 * A page of books found (title search, advanced search): the rows, a pager with «共 N 条», and the
 * placeholder, error and no-results states.
 */
export function BookResultList({
  query,
  page,
  pageSize,
  onPage,
}: {
  query: { isPending: boolean; isError: boolean; data: BookPage | undefined };
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
}): ReactNode {
  if (query.isPending) return <div className="search-placeholder" />;
  if (query.isError && !query.data) return <Empty description={MSG.serverException} />;
  if (!query.data || query.data.records.length === 0) return <Empty description="未找到相关古籍" />;
  return (
    <>
      <ul className="result-list">
        {query.data.records.map((book) => (
          <li key={book.catalogId}>
            <ResultRow book={book} />
          </li>
        ))}
      </ul>
      <Pagination
        className="result-pager"
        current={page}
        pageSize={pageSize}
        total={query.data.total}
        showSizeChanger={false}
        showTotal={(total) => `共 ${total} 条`}
        onChange={onPage}
      />
    </>
  );
}

function ResultRow({ book }: { book: BookSummary }) {
  const to = `/SearchPage/${book.catalogId}`;
  return (
    <article className="result-row" aria-labelledby={`book-${book.catalogId}`}>
      <Link to={to} tabIndex={-1} aria-hidden="true" className="result-cover">
        <BookCover title={book.title} coverUrl={book.coverUrl} width={100} height={100} />
      </Link>
      <div className="result-body">
        <div className="result-title-row">
          <h3 id={`book-${book.catalogId}`} className="result-title">
            <Link to={to} {...noConvert}>
              {book.title}
            </Link>
          </h3>
          {!book.isOpen && (
            <Tag className="reading-room-tag" title="仅限阅览室内在线阅读">
              阅览室
            </Tag>
          )}
        </div>
        <dl className="result-fields">
          <div>
            <dt>作者</dt>
            {book.author ? <dd {...noConvert}>{book.author}</dd> : <dd>暂无</dd>}
          </div>
          <div>
            <dt>朝代</dt>
            {book.publishDynasty ? <dd {...noConvert}>{book.publishDynasty}</dd> : <dd>暂无</dd>}
          </div>
          <div>
            <dt>版本</dt>
            {book.coverageDynasty ? <dd {...noConvert}>{book.coverageDynasty}</dd> : <dd>暂无</dd>}
          </div>
          <div>
            <dt>索书号</dt>
            {book.callNumber ? <dd {...noConvert}>{book.callNumber}</dd> : <dd>暂无</dd>}
          </div>
        </dl>
      </div>
    </article>
  );
}
