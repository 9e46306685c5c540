import { useState } from 'react';
import { Button, Empty, Pagination, Spin } from 'antd';
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { MSG, PAGE_SIZES, type BookGroup as Group } from '@guji/shared';
import { useBookGroupPages, type FullTextSearch } from '../queries.ts';
import { BookText } from '../../../components/book-text.tsx';
import { FullTextHit } from './full-text-hit.tsx';

/**
 * A book with pages found: its name, facts and exact counts («共 N 页，M 处»), its first pages, and
 * «展开» to page through all of its pages found (the page list of the search, this book only).
 */
export function BookGroup({ group, search }: { group: Group; search: FullTextSearch }) {
  const [expanded, setExpanded] = useState(false);
  const [page, setPage] = useState(1);
  const more = group.pages > group.hits.length;
  const pages = useBookGroupPages(group.catalogId, search, page, expanded);

  const facts = [group.author, group.publishDynasty, group.coverageDynasty].filter(Boolean);
  const listId = `book-group-${group.catalogId}`;
  const hits = expanded && pages.data ? pages.data.records : group.hits;
  return (
    <article className="book-group" aria-labelledby={`${listId}-title`}>
      <header className="book-group-head">
        <h3 id={`${listId}-title`} className="book-group-title">
          <Link to={`/SearchPage/${group.catalogId}`}>
            <BookText>{group.catalogName}</BookText>
          </Link>
        </h3>
        <span className="book-group-count">
          共 {group.pages} 页，{group.occurrences} 处
        </span>
      </header>
      {(facts.length > 0 || group.classificationName) && (
        <p className="book-group-facts">
          {facts.length > 0 && <BookText>{facts.join(' · ')}</BookText>}
          {group.classificationName && <span className="book-group-class">{group.classificationName}</span>}
        </p>
      )}
      <Spin spinning={expanded && pages.isFetching && !pages.data}>
        {expanded && pages.isError && !pages.data ? (
          <Empty description={pages.error.message || MSG.serverException} />
        ) : (
          <ol className="full-text-list" id={listId} aria-label="命中页">
            {hits.map((hit) => (
              <li key={hit.imageId}>
                <FullTextHit hit={hit} query={search.text} />
              </li>
            ))}
          </ol>
        )}
      </Spin>
      {expanded && pages.data && pages.data.total > PAGE_SIZES.advanced && (
        <Pagination
          className="book-group-pager"
          size="small"
          current={page}
          pageSize={PAGE_SIZES.advanced}
          total={pages.data.total}
          showSizeChanger={false}
          onChange={setPage}
        />
      )}
      {more && (
        <Button
          type="link"
          className="book-group-toggle"
          aria-expanded={expanded}
          aria-controls={listId}
          icon={expanded ? <UpOutlined aria-hidden /> : <DownOutlined aria-hidden />}
          onClick={() => {
            setExpanded((open) => !open);
            setPage(1);
          }}
        >
          {expanded ? '收起' : `展开本书全部 ${group.pages} 页`}
        </Button>
      )}
    </article>
  );
}
