import { useId, useState } from 'react';
import { Button, Segmented } from 'antd';
import { DASHBOARD_RANGES, type DashboardCounts } from '@guji/shared';
import { useDashboard } from '../queries.ts';

type Day = DashboardCounts & { day: string };
/** A chart's series: the figure, its name in the legend, the class that colours its bars. */
type Series = Array<{ key: keyof DashboardCounts; label: string; className: string }>;

const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;
const shortDay = (day: string) => `${Number(day.slice(5, 7))}月${Number(day.slice(8, 10))}日`;

/** The figures shown as cards: the total of the range, with what it counts. */
const CARDS: Array<{ key: keyof DashboardCounts; label: string; format?: (n: number) => string }> = [
  { key: 'readers', label: '读者（人次·日）' },
  { key: 'pageViews', label: '页面浏览' },
  { key: 'bookOpens', label: '打开古籍' },
  { key: 'searches', label: '检索' },
  { key: 'registrations', label: '新注册用户' },
  { key: 'orders', label: '打印订单' },
  { key: 'revenueFen', label: '打印收入', format: yuan },
  { key: 'ocrPages', label: 'OCR 识别页数' },
];

/** The charts: one or two series per chart over the days of the range. */
const CHARTS: Array<{
  title: string;
  series: Series;
  format?: (n: number) => string;
  /** The least top of the scale (a chart of zeros still has one). */
  least?: number;
}> = [
  {
    title: '每日读者与页面浏览',
    series: [
      { key: 'pageViews', label: '页面浏览', className: 'bar-a' },
      { key: 'readers', label: '读者', className: 'bar-b' },
    ],
  },
  {
    title: '每日检索',
    series: [{ key: 'searches', label: '检索', className: 'bar-a' }],
  },
  {
    title: '每日打印订单',
    series: [
      { key: 'orders', label: '下单', className: 'bar-a' },
      { key: 'paidOrders', label: '已支付', className: 'bar-b' },
    ],
  },
  {
    title: '每日打印收入',
    series: [{ key: 'revenueFen', label: '收入', className: 'bar-a' }],
    format: yuan,
    least: 100,
  },
  {
    title: '每日 OCR 识别页数',
    series: [{ key: 'ocrPages', label: 'OCR 页数', className: 'bar-a' }],
  },
];

/**
 * The console's dashboard: totals of the chosen range and a bar chart per figure, day by day in the
 * library's time zone. Each chart also has its numbers as a table (for screen readers and copying).
 */
export function Dashboard() {
  const [days, setDays] = useState<number>(30);
  const data = useDashboard(days);
  const dashboard = data.data;
  return (
    <div className="dashboard">
      <div className="dashboard-head">
        <Segmented
          aria-label="统计范围"
          value={days}
          onChange={(value) => setDays(value)}
          options={DASHBOARD_RANGES.map((n) => ({ value: n, label: `近 ${n} 天` }))}
        />
        {dashboard && (
          <span className="dashboard-note">
            按 {dashboard.timeZone} 时区的自然日统计；馆藏古籍 {dashboard.catalogue.books} 种（公开{' '}
            {dashboard.catalogue.visibleBooks} 种），影像 {dashboard.catalogue.pages} 页，用户{' '}
            {dashboard.catalogue.users} 人
          </span>
        )}
      </div>
      {data.isError && <p role="alert">统计数据加载失败，请稍后重试。</p>}
      {dashboard && (
        <>
          <dl className="dashboard-cards">
            {CARDS.map((card) => (
              <div key={card.key} className="dashboard-card">
                <dt>{card.label}</dt>
                <dd>{(card.format ?? String)(dashboard.totals[card.key])}</dd>
              </div>
            ))}
          </dl>
          <div className="dashboard-charts">
            {CHARTS.map((chart) => (
              <BarChart key={chart.title} {...chart} days={dashboard.days} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}

const WIDTH = 600;
const HEIGHT = 180;
const LEFT = 64;
const BOTTOM = 30;

/** The chart's numbers as a table, day by day (for screen readers and copying). */
function ChartTable({
  series,
  days,
  format,
}: {
  series: Series;
  days: Day[];
  format: (n: number) => string;
}) {
  return (
    <table className="dashboard-table">
      <thead>
        <tr>
          <th scope="col">日期</th>
          {series.map((s) => (
            <th key={s.key} scope="col">
              {s.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {days.map((d) => (
          <tr key={d.day}>
            <th scope="row">{d.day}</th>
            {series.map((s) => (
              <td key={s.key}>{format(d[s.key])}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The SVG plot: the axis, the top of the scale, a group of bars per day and some of the days' names. */
function ChartPlot({
  label,
  series,
  days,
  format,
  least,
}: {
  label: string;
  series: Series;
  days: Day[];
  format: (n: number) => string;
  least: number;
}) {
  const max = Math.max(least, ...days.flatMap((d) => series.map((s) => d[s.key])));
  const slot = (WIDTH - LEFT) / Math.max(1, days.length);
  const bar = Math.max(1, (slot * 0.8) / series.length);
  const y = (value: number) => ((HEIGHT - BOTTOM) * (1 - value / max)).toFixed(1);
  const labelEvery = Math.ceil(days.length / 6);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
      <line x1={LEFT} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} className="axis" />
      <line x1={LEFT} x2={WIDTH} y1={0.5} y2={0.5} className="grid" />
      <text x={LEFT - 6} y={16} className="tick" textAnchor="end">
        {format(max)}
      </text>
      <text x={LEFT - 6} y={HEIGHT - BOTTOM} className="tick" textAnchor="end">
        0
      </text>
      {days.map((d, i) => (
        <g key={d.day}>
          {series.map((s, j) => (
            <rect
              key={s.key}
              className={s.className}
              x={LEFT + i * slot + slot * 0.1 + j * bar}
              y={y(d[s.key])}
              width={bar}
              height={Math.max(0, HEIGHT - BOTTOM - Number(y(d[s.key])))}
            >
              <title>{`${shortDay(d.day)} ${s.label} ${format(d[s.key])}`}</title>
            </rect>
          ))}
          {((i % labelEvery === 0 && days.length - 1 - i >= labelEvery / 2) || i === days.length - 1) && (
            <text
              x={i === days.length - 1 ? WIDTH : LEFT + i * slot + slot / 2}
              y={HEIGHT - 6}
              className={i !== days.length - 1 && (i / labelEvery) % 2 === 1 ? 'tick tick-minor' : 'tick'}
              textAnchor={i === days.length - 1 ? 'end' : 'middle'}
            >
              {shortDay(d.day)}
            </text>
          )}
        </g>
      ))}
    </svg>
  );
}

/** A bar chart of one or two series (bars side by side), drawn as SVG, with its data as a table. */
function BarChart({
  title,
  series,
  days,
  format = String,
  least = 1,
}: {
  title: string;
  series: Series;
  days: Day[];
  format?: (n: number) => string;
  least?: number;
}) {
  const id = useId();
  const [showTable, setShowTable] = useState(false);
  const total = (key: keyof DashboardCounts) => days.reduce((sum, d) => sum + d[key], 0);
  return (
    <figure className="dashboard-chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>
        <strong>{title}</strong>
        <span className="dashboard-legend">
          {series.map((s) => (
            <span key={s.key}>
              <i className={`legend-swatch ${s.className}`} aria-hidden />
              {s.label} 合计 {format(total(s.key))}
            </span>
          ))}
        </span>
      </figcaption>
      <ChartPlot
        label={`${title}：${series.map((s) => `${s.label}合计 ${format(total(s.key))}`).join('，')}`}
        series={series}
        days={days}
        format={format}
        least={least}
      />
      <Button type="link" size="small" onClick={() => setShowTable(!showTable)}>
        {showTable ? '收起数据表' : '查看数据表'}
      </Button>
      {showTable && <ChartTable series={series} days={days} format={format} />}
    </figure>
  );
}
