import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Empty, Input, Pagination, Spin, Tag, Tree, type TreeDataNode } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MSG, PAGE_SIZES, type BookSummary, type Classification } from '@guji/shared';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { NO_CONVERT_ATTRIBUTE } from '../../language/page-converter.ts';
import { BookCover } from '../components/book-cover.tsx';
import { useBookSearch, useClassifications } from '../queries.ts';
import { parseSearchParams, searchPath, type SearchState } from '../search-params.ts';

/** Spec §9: the search tip clears after 1 s. */
const SEARCH_TIP_MS = 1000;
const ALL_KEY = '__all';
const noConvert = { [NO_CONVERT_ATTRIBUTE]: '' };

/**
 * /SearchPage?title&classCode&page: title search with a classification filter, 6 results per page
 * (spec §2). The search lives in the address, so reload, back and sharing keep it.
 */
export function SearchPage() {
  useDocumentTitle('古籍检索');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const state = parseSearchParams(searchParams);
  const results = useBookSearch(state);
  const stateKey = searchPath(state);
  const [filterOpen, setFilterOpen] = useState(false);

  const go = (next: Partial<SearchState>) => void navigate(searchPath({ ...state, page: 1, ...next }));

  return (
    <div className="page search-page">
      <Breadcrumbs second={{ title: '古籍检索' }} />
      <h1 className="page-title">古籍检索</h1>
      <div className="search-layout">
        <aside className="search-filter" aria-labelledby="search-filter-title" data-open={filterOpen}>
          <div className="search-filter-head">
            <h2 id="search-filter-title">分类</h2>
            <Button
              className="search-filter-toggle"
              icon={<FilterOutlined aria-hidden />}
              aria-expanded={filterOpen}
              aria-controls="search-filter-tree"
              onClick={() => setFilterOpen((open) => !open)}
            >
              {filterOpen ? '收起分类' : '展开分类'}
            </Button>
          </div>
          <div id="search-filter-tree" className="search-filter-tree">
            <ClassificationFilter
              selected={state.classCode}
              onSelect={(classCode) => {
                setFilterOpen(false);
                go({ classCode });
              }}
            />
          </div>
        </aside>
        <section className="search-main" aria-labelledby="search-results-title">
          <SearchBox key={state.title} initial={state.title} onSearch={(title) => go({ title })} />
          <h2 id="search-results-title" className="visually-hidden">
            检索结果
          </h2>
          <SearchTip key={stateKey} fetching={results.isFetching}>
            {results.isPending ? (
              <div className="search-placeholder" />
            ) : results.isError && !results.data ? (
              <Empty description={MSG.serverException} />
            ) : results.data && results.data.records.length > 0 ? (
              <>
                <ul className="result-list">
                  {results.data.records.map((book) => (
                    <li key={book.catalogId}>
                      <ResultRow book={book} />
                    </li>
                  ))}
                </ul>
                <Pagination
                  className="result-pager"
                  current={state.page}
                  pageSize={PAGE_SIZES.search}
                  total={results.data.total}
                  showSizeChanger={false}
                  showTotal={(total) => `共 ${total} 条`}
                  onChange={(page) => go({ page })}
                />
              </>
            ) : (
              <Empty description="未找到相关古籍" />
            )}
          </SearchTip>
        </section>
      </div>
    </div>
  );
}

function SearchBox({ initial, onSearch }: { initial: string; onSearch: (title: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <form
      role="search"
      aria-label="书名检索"
      className="search-box"
      onSubmit={(event) => event.preventDefault()}
    >
      <Input.Search
        aria-label="书名"
        placeholder="请输入书名"
        enterButton="检索"
        maxLength={100}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        onSearch={(title) => onSearch(title)}
      />
    </form>
  );
}

/** The tip overlay of spec §2: '正在检索…' over the results for 1 s after each search, or while loading. */
function SearchTip({ fetching, children }: { fetching: boolean; children: ReactNode }) {
  const [tip, setTip] = useState(true);
  useEffect(() => {
    const timer = window.setTimeout(() => setTip(false), SEARCH_TIP_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <Spin spinning={tip || fetching} description="正在检索…">
      <div aria-busy={tip || fetching}>{children}</div>
    </Spin>
  );
}

function toTreeData(nodes: readonly Classification[]): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.dictionaryValue,
    title: node.dictionaryName,
    children: node.children.length ? toTreeData(node.children) : undefined,
  }));
}

function ClassificationFilter({
  selected,
  onSelect,
}: {
  selected: string;
  onSelect: (classCode: string) => void;
}) {
  const classifications = useClassifications();
  const treeData = useMemo(
    () => [{ key: ALL_KEY, title: '全部' }, ...toTreeData(classifications.data ?? [])],
    [classifications.data],
  );
  if (classifications.isPending) return <Spin size="small" />;
  return (
    <Tree
      aria-label="古籍分类"
      treeData={treeData}
      selectedKeys={[selected || ALL_KEY]}
      defaultExpandedKeys={selected ? [selected] : []}
      autoExpandParent
      onSelect={(_, info) => {
        const key = String(info.node.key);
        onSelect(key === ALL_KEY ? '' : key);
      }}
    />
  );
}

export function ResultRow({ book }: { book: BookSummary }) {
  const to = `/SearchPage/${book.catalogId}`;
  return (
    <article className="result-row" aria-labelledby={`book-${book.catalogId}`}>
      <Link to={to} tabIndex={-1} aria-hidden="true" className="result-cover">
        <BookCover title={book.title} coverUrl={book.coverUrl} width={100} height={100} />
      </Link>
      <div className="result-body">
        <div className="result-title-row">
          <h3 id={`book-${book.catalogId}`} className="result-title">
            <Link to={to}>{book.title}</Link>
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
            <dd>{book.author || '暂无'}</dd>
          </div>
          <div>
            <dt>版本</dt>
            <dd>{[book.publishDynasty, book.coverageDynasty].filter(Boolean).join(' ') || '暂无'}</dd>
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
