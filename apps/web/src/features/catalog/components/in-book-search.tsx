import { useEffect, useRef, useState } from 'react';
import { Button, Empty, Input, Pagination, Spin } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { MSG, PAGE_SIZES, type TextHit } from '@guji/shared';
import { useInBookSearch } from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { useLoginFirst } from '../../account/index.ts';
import { SnippetText } from './snippet-text.tsx';
import { PagePlace } from '../../../components/book-text.tsx';

/** The in-book search box (spec §2: reading room only). An empty box asks for text instead of searching. */
export function InBookSearchBox({
  initial,
  onSearch,
  compact = false,
}: {
  initial: string;
  onSearch: (text: string) => void;
  compact?: boolean;
}) {
  const [value, setValue] = useState(initial);
  const { loginFirst } = useLoginFirst();
  useEffect(() => setValue(initial), [initial]);
  return (
    <form
      role="search"
      aria-label="书内检索"
      className={compact ? 'in-book-search in-book-search-compact' : 'in-book-search'}
      onSubmit={(event) => event.preventDefault()}
    >
      <Input.Search
        aria-label="书内检索内容"
        placeholder="书内检索"
        enterButton="检索"
        maxLength={50}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        onSearch={(text) => {
          if (text.trim() === '') {
            toast.warning('请输入检索内容');
            return;
          }
          // The text of a book is searched by signed-in readers only (DESIGN.md §7).
          if (!loginFirst()) return;
          onSearch(text.trim());
        }}
      />
    </form>
  );
}

/**
 * The result view of an in-book search: the total, a back link, the hits (text, volume, directory entry,
 * page) and a pager. «未找到匹配文字» is shown as a warning when a search finds nothing.
 */
export function InBookResults({
  catalogId,
  text,
  page,
  onPage,
  onOpen,
  onBack,
  backLabel,
}: {
  catalogId: number;
  text: string;
  page: number;
  onPage: (page: number) => void;
  onOpen: (hit: TextHit) => void;
  onBack: () => void;
  backLabel: string;
}) {
  const results = useInBookSearch(catalogId, text, page);
  const warned = useRef<string | null>(null);
  useEffect(() => {
    if (results.data && results.data.total === 0 && !results.isPlaceholderData && warned.current !== text) {
      warned.current = text;
      toast.warning(MSG.noMatchingText);
    }
  }, [results.data, results.isPlaceholderData, text]);

  return (
    <section className="in-book-results" aria-label="书内检索结果">
      <div className="in-book-results-head">
        <Button type="link" icon={<ArrowLeftOutlined aria-hidden />} onClick={onBack}>
          {backLabel}
        </Button>
        {results.data && <span className="in-book-total">共 {results.data.total} 条</span>}
      </div>
      <Spin spinning={results.isFetching}>
        {results.isPending ? (
          <div className="search-placeholder" />
        ) : results.isError && !results.data ? (
          <Empty description={results.error.message || MSG.serverException} />
        ) : results.data && results.data.records.length > 0 ? (
          <>
            <ol className="in-book-list">
              {results.data.records.map((hit) => (
                <li key={hit.imageId}>
                  <button type="button" className="in-book-hit" onClick={() => onOpen(hit)}>
                    <span className="text-hit-snippet">
                      <SnippetText snippet={hit.snippet} />
                    </span>
                    <span className="in-book-where">
                      <PagePlace names={[hit.fascicleName, hit.directoryName]} pageNumber={hit.pageNumber} />
                      {hit.occurrences > 1 && (
                        <span className="hit-occurrences">（本页 {hit.occurrences} 处）</span>
                      )}
                    </span>
                  </button>
                </li>
              ))}
            </ol>
            <Pagination
              className="result-pager"
              size="small"
              current={page}
              pageSize={PAGE_SIZES.advanced}
              total={results.data.total}
              showSizeChanger={false}
              onChange={onPage}
            />
          </>
        ) : (
          <Empty description={MSG.noMatchingText} />
        )}
      </Spin>
    </section>
  );
}
