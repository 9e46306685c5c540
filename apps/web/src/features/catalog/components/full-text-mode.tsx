import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button, Checkbox, Empty, Input, Pagination } from 'antd';
import { MSG, PAGE_SIZES, parseSearchQuery, type FullTextBookPage } from '@guji/shared';
import { useFullTextBooks, type FullTextBooksQuery } from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { loginPathFor, useLoginFirst } from '../../account/index.ts';
import { useSession } from '../../account/queries.ts';
import { advancedPath, fullTextFilters, hasQuery, type AdvancedState } from '../advanced-params.ts';
import { BookGroup } from './book-group.tsx';
import { FullTextFilters } from './full-text-filters.tsx';
import { QueryHelp } from './query-help.tsx';
import { SearchTip } from './search-tip.tsx';

/** First pages shown with each book (the rest behind «展开»). */
const HITS_PER_BOOK = 3;

/** A new search starts without the filters of the last one. */
const NO_FILTERS = { catalogId: null, classCode: '', dynasty: '', edition: '' } as const;

/**
 * Full-text mode of /AdvancedSearch (reading room, signed in): the query box with 「精确字形」 and
 * 「检索语法」, then the books found — each with its exact counts and first pages, expandable — with
 * the totals (spec §2's «约 N 条结果», N the pages found; then «M 处，见于 B 部古籍», not restating N as an
 * exact count beside the spec's «约»), the filters and the order, 8 books a page.
 */
export function FullTextMode({ state, onSearch }: ModeProps) {
  const { signedIn, loginFirst } = useLoginFirst();
  const sessionPending = useSession().isPending;
  const location = useLocation();
  const query: FullTextBooksQuery = {
    text: state.text,
    exact: state.exact ? ('1' as const) : ('0' as const),
    sort: state.sort,
    ...fullTextFilters(state),
  };
  // Snippets of the text are for signed-in readers (DESIGN.md §7): a visitor is asked to log in.
  const results = useFullTextBooks(
    query,
    state.page,
    HITS_PER_BOOK,
    state.type === 1 && hasQuery(state) && signedIn,
  );
  return (
    <>
      <FullTextForm state={state} onSearch={onSearch} loginFirst={loginFirst} />
      {hasQuery(state) && !signedIn && !sessionPending && (
        // A shared full-text link opened by a visitor: say why there are no results, and where to sign in.
        <section aria-label="全文检索结果" className="advanced-results full-text-login">
          <Empty
            description={
              <>
                全文检索的结果仅供登录读者查看。
                <Link to={loginPathFor(location.pathname + location.search)}>登录</Link>
                后即可查看「{state.text}」的检索结果。
              </>
            }
          />
        </section>
      )}
      {hasQuery(state) && signedIn && (
        <section aria-label="全文检索结果" className="advanced-results">
          <SearchTip key={advancedPath({ ...state, page: 1 })} fetching={results.isFetching}>
            {results.isPending ? (
              <div className="search-placeholder" />
            ) : results.isError && !results.data ? (
              <Empty description={results.error.message || MSG.serverException} />
            ) : results.data ? (
              <FullTextResults data={results.data} state={state} onSearch={onSearch} />
            ) : null}
          </SearchTip>
        </section>
      )}
    </>
  );
}

interface ModeProps {
  state: AdvancedState;
  onSearch: (next: Partial<AdvancedState>) => void;
}

/**
 * The query box with 「精确字形」 and 「检索语法」: a query is checked before it is searched for, and
 * a visitor is asked to sign in first.
 */
function FullTextForm({ state, onSearch, loginFirst }: ModeProps & { loginFirst: () => boolean }) {
  const [text, setText] = useState(state.text);
  const submit = () => {
    const typed = text.trim();
    if (typed === '') {
      toast.warning('请输入检索内容');
      return;
    }
    const parsed = parseSearchQuery(typed);
    if (!parsed.ok) {
      toast.warning(parsed.message);
      return;
    }
    if (!loginFirst()) return;
    onSearch({ type: 1, text: typed, ...NO_FILTERS });
  };
  return (
    <form
      role="search"
      aria-label="全文检索"
      className="advanced-form full-text-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="full-text-box">
        <Input
          aria-label="全文检索内容"
          aria-describedby="full-text-syntax-hint"
          placeholder="请输入要检索的正文，如：学而时习之"
          maxLength={50}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <Button type="primary" htmlType="submit">
          检索
        </Button>
        <Button
          onClick={() => {
            setText('');
            onSearch({ type: 1, text: '', ...NO_FILTERS });
          }}
        >
          重置
        </Button>
      </div>
      <div className="full-text-options">
        <Checkbox
          checked={state.exact}
          onChange={(event) => onSearch({ type: 1, exact: event.target.checked })}
        >
          精确字形
        </Checkbox>
        <QueryHelp />
        <span id="full-text-syntax-hint" className="full-text-hint">
          多词以空格分隔；支持 "词组"、OR、-排除、NEAR/距离
        </span>
      </div>
    </form>
  );
}

/** The totals, the filters, then the books found with their first pages, and the pager. */
function FullTextResults({ data, state, onSearch }: ModeProps & { data: FullTextBookPage }) {
  return (
    <>
      <div className="full-text-summary">
        <p className="full-text-total">约 {data.summary.pages} 条结果</p>
        <p className="full-text-counts">
          {data.summary.occurrences} 处，见于 {data.summary.books} 部古籍
        </p>
      </div>
      <FullTextFilters facets={data.facets} state={state} onChange={onSearch} />
      {data.records.length > 0 ? (
        <>
          <ol className="book-group-list">
            {data.records.map((group) => (
              <li key={group.catalogId}>
                <BookGroup
                  group={group}
                  search={{ text: state.text, exact: state.exact, sort: state.sort }}
                />
              </li>
            ))}
          </ol>
          <Pagination
            className="result-pager"
            current={state.page}
            pageSize={PAGE_SIZES.advanced}
            total={data.total}
            showSizeChanger={false}
            showTotal={(total) => `共 ${total} 部古籍`}
            onChange={(page) => onSearch({ page })}
          />
        </>
      ) : (
        <Empty description="未找到相关内容" />
      )}
    </>
  );
}
