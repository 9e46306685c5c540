import { useState, type Dispatch, type SetStateAction } from 'react';
import { Button, Input, Radio, Select, Spin, Tabs } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { ADVANCED_FIELD_LABELS, ADVANCED_FIELDS, PAGE_SIZES, type AdvancedField } from '@guji/shared';
import { useAdvancedSearch } from '../queries.ts';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { toast } from '../../../components/toast.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useSession } from '../../account/queries.ts';
import {
  advancedPath,
  EMPTY_ROW,
  hasQuery,
  parseAdvancedParams,
  type AdvancedState,
  type FormRow,
} from '../advanced-params.ts';
import { BookResultList } from '../components/book-result-list.tsx';
import { FullTextMode } from '../components/full-text-mode.tsx';

const MAX_ROWS = 10;

/**
 * /AdvancedSearch?type&page: book search by rows of field + text joined by AND/OR, fuzzy or exact
 * (type 0), and, in the reading room only, full-text search over the recognised text (type 1:
 * components/full-text-mode.tsx). 8 results per page (spec §9); the search lives in the address.
 */
export function AdvancedSearchPage() {
  useDocumentTitle('高级检索');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const readingRoom = useSession().data?.readingRoom ?? false;
  const requested = parseAdvancedParams(searchParams);
  // Outside the reading room there is no full-text tab, whatever the address says.
  const state: AdvancedState = readingRoom ? requested : { ...requested, type: 0 };
  const go = (next: Partial<AdvancedState>) => void navigate(advancedPath({ ...state, page: 1, ...next }));

  const bookMode = (
    <BookMode key={`book:${searchParams.get('rows') ?? ''}:${state.match}`} state={state} onSearch={go} />
  );
  return (
    <div className="page advanced-page">
      <Breadcrumbs second={{ title: '高级检索' }} />
      <h1 className="page-title">高级检索</h1>
      {readingRoom ? (
        <Tabs
          activeKey={String(state.type)}
          onChange={(key) => void navigate(advancedPath({ ...state, type: key === '1' ? 1 : 0, page: 1 }))}
          items={[
            { key: '0', label: '古籍', children: bookMode },
            {
              key: '1',
              label: '全文',
              children: <FullTextMode key={`text:${state.text}`} state={state} onSearch={go} />,
            },
          ]}
        />
      ) : (
        bookMode
      )}
    </div>
  );
}

interface ModeProps {
  state: AdvancedState;
  onSearch: (next: Partial<AdvancedState>) => void;
}

function BookMode({ state, onSearch }: ModeProps) {
  const [rows, setRows] = useState<FormRow[]>(state.rows);
  const [match, setMatch] = useState<0 | 1>(state.match);
  const results = useAdvancedSearch(state.rows, state.match, state.page, state.type === 0 && hasQuery(state));

  const submit = () => {
    if (!rows.some((row) => row.value.trim() !== '')) {
      toast.warning('请输入检索内容');
      return;
    }
    onSearch({ type: 0, rows: rows.map((row) => ({ ...row, value: row.value.trim() })), match });
  };

  return (
    <>
      <form
        className="advanced-form"
        aria-label="古籍高级检索"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <AdvancedRows rows={rows} setRows={setRows} />
        <div className="advanced-actions">
          <Button
            icon={<PlusOutlined aria-hidden />}
            disabled={rows.length >= MAX_ROWS}
            onClick={() => setRows((current) => [...current, { ...EMPTY_ROW }])}
          >
            添加条件
          </Button>
          <Radio.Group
            aria-label="匹配方式"
            value={match}
            onChange={(event) => setMatch(event.target.value as 0 | 1)}
            options={[
              { value: 1, label: '模糊匹配' },
              { value: 0, label: '精确匹配' },
            ]}
          />
          <Button type="primary" htmlType="submit">
            检索
          </Button>
          <Button
            onClick={() => {
              setRows([{ ...EMPTY_ROW }]);
              setMatch(1);
              onSearch({ type: 0, rows: [{ ...EMPTY_ROW }], match: 1 });
            }}
          >
            重置
          </Button>
        </div>
      </form>
      {hasQuery(state) && (
        <section aria-label="检索结果" className="advanced-results">
          <Spin spinning={results.isFetching}>
            <BookResultList
              query={results}
              page={state.page}
              pageSize={PAGE_SIZES.advanced}
              onPage={(page) => onSearch({ page })}
            />
          </Spin>
        </section>
      )}
    </>
  );
}

/** The rows of field + text, each after the first joined to the ones before it by AND or OR, removable. */
function AdvancedRows({ rows, setRows }: { rows: FormRow[]; setRows: Dispatch<SetStateAction<FormRow[]>> }) {
  const change = (index: number, patch: Partial<FormRow>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <ol className="advanced-rows">
      {rows.map((row, index) => (
        <li key={index} className="advanced-row">
          {index === 0 ? (
            <span className="advanced-connector-placeholder" aria-hidden />
          ) : (
            <Select
              aria-label={`第 ${index + 1} 行的逻辑关系`}
              className="advanced-connector"
              value={row.type}
              onChange={(type) => change(index, { type })}
              options={[
                { value: 0, label: '并且' },
                { value: 1, label: '或者' },
              ]}
            />
          )}
          <Select
            aria-label={`第 ${index + 1} 行的检索字段`}
            className="advanced-field"
            value={row.key}
            onChange={(key: AdvancedField) => change(index, { key })}
            options={ADVANCED_FIELDS.map((key) => ({ value: key, label: ADVANCED_FIELD_LABELS[key] }))}
          />
          <Input
            aria-label={`第 ${index + 1} 行的检索内容`}
            className="advanced-value"
            placeholder={`请输入${ADVANCED_FIELD_LABELS[row.key]}`}
            maxLength={100}
            value={row.value}
            onChange={(event) => change(index, { value: event.target.value })}
          />
          {index > 0 && (
            <Button
              aria-label={`删除第 ${index + 1} 行`}
              icon={<DeleteOutlined aria-hidden />}
              onClick={() => setRows((current) => current.filter((_, i) => i !== index))}
            />
          )}
        </li>
      ))}
    </ol>
  );
}
