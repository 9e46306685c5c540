import { Radio, Select } from 'antd';
import {
  FULL_TEXT_SORT_LABELS,
  FULL_TEXT_SORTS,
  type FacetValue,
  type FullTextFacets,
  type FullTextSort,
} from '@guji/shared';
import { BookText } from '../../../components/book-text.tsx';
import type { AdvancedState } from '../advanced-params.ts';

interface FilterDef {
  facet: keyof FullTextFacets;
  label: string;
  all: string;
  /** Book data (titles, dynasties and editions as recorded) keeps its characters under 简/繁. */
  bookData: boolean;
  value: (state: AdvancedState) => string;
  next: (value: string) => Partial<AdvancedState>;
}

const FILTERS: FilterDef[] = [
  {
    facet: 'catalog',
    label: '古籍',
    all: '全部古籍',
    bookData: true,
    value: (s) => (s.catalogId === null ? '' : String(s.catalogId)),
    next: (v) => ({ catalogId: v ? Number(v) : null }),
  },
  {
    facet: 'classification',
    label: '分类',
    all: '全部分类',
    bookData: false,
    value: (s) => s.classCode,
    next: (v) => ({ classCode: v }),
  },
  {
    facet: 'dynasty',
    label: '朝代',
    all: '全部朝代',
    bookData: true,
    value: (s) => s.dynasty,
    next: (v) => ({ dynasty: v }),
  },
  {
    facet: 'edition',
    label: '版本',
    all: '全部版本',
    bookData: true,
    value: (s) => s.edition,
    next: (v) => ({ edition: v }),
  },
];

/**
 * The filters of a full-text search — book, classification, dynasty, edition, each value with how many
 * pages it holds among the results — and the order (相关度, 书序, 书名).
 */
export function FullTextFilters({
  facets,
  state,
  onChange,
}: {
  facets: FullTextFacets;
  state: AdvancedState;
  onChange: (next: Partial<AdvancedState>) => void;
}) {
  return (
    <div className="full-text-filters" role="group" aria-label="筛选与排序">
      {FILTERS.map((filter) => {
        const value = filter.value(state);
        return (
          <div key={filter.facet} className="full-text-filter">
            <span className="full-text-filter-label">{filter.label}</span>
            <Select
              aria-label={`按${filter.label}筛选`}
              className="full-text-filter-select"
              placeholder={filter.all}
              allowClear
              showSearch={{ optionFilterProp: 'search' }}
              popupMatchSelectWidth={false}
              value={value || undefined}
              onChange={(next: string | undefined) => onChange({ ...filter.next(next ?? ''), page: 1 })}
              options={facets[filter.facet].map((item) => option(item, filter.bookData))}
            />
          </div>
        );
      })}
      <Radio.Group
        aria-label="排序"
        className="full-text-sort"
        optionType="button"
        size="small"
        value={state.sort}
        onChange={(event) => onChange({ sort: event.target.value as FullTextSort, page: 1 })}
        options={FULL_TEXT_SORTS.map((sort) => ({ value: sort, label: FULL_TEXT_SORT_LABELS[sort] }))}
      />
    </div>
  );
}

function option(item: FacetValue, bookData: boolean) {
  return {
    value: item.value,
    search: item.label,
    label: (
      <span>
        {bookData ? <BookText>{item.label}</BookText> : item.label}
        <span className="facet-count">（{item.pages} 页）</span>
      </span>
    ),
  };
}
