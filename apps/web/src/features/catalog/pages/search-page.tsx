import { useMemo, useState } from 'react';
import { Button, Input, Spin, Tree, type TreeDataNode } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { PAGE_SIZES, type Classification } from '@guji/shared';
import { BookText } from '../../../components/book-text.tsx';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { BookResultList } from '../components/book-result-list.tsx';
import { SearchTip } from '../components/search-tip.tsx';
import { useBookSearch, useClassifications } from '../queries.ts';
import { parseSearchParams, searchPath, type SearchState } from '../search-params.ts';

const ALL_KEY = '__all';

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
            <BookResultList
              query={results}
              page={state.page}
              pageSize={PAGE_SIZES.search}
              onPage={(page) => go({ page })}
            />
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

function toTreeData(nodes: readonly Classification[]): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.dictionaryValue,
    // The dictionary's names as stored (issue 32: stored text is never converted).
    title: <BookText>{node.dictionaryName}</BookText>,
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
