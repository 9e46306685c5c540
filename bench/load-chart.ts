/**
 * The load benchmark's figure: p95 latency of each action against concurrent readers, as a plain SVG line
 * chart (no charting library), with the page-turn budget drawn across it.
 */

export interface ChartSeries {
  name: string;
  /** One value per step (ms); NaN where the action had no sample. */
  values: number[];
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#17becf'];
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A rounded top for the y axis: 1, 2 or 5 times a power of ten, at least `max`. */
function niceTop(max: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(max, 1)));
  return [1, 2, 5, 10].map((m) => m * power).find((v) => v >= max) ?? 10 * power;
}

export function latencyChart(options: {
  title: string;
  readers: number[];
  series: ChartSeries[];
  budgetMs: number;
  budgetLabel: string;
}): string {
  const { readers, series, budgetMs } = options;
  const width = 720;
  const height = 420;
  const left = 64;
  const right = 150;
  const top = 40;
  const bottom = 56;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const finite = series.flatMap((s) => s.values.filter(Number.isFinite));
  const yMax = niceTop(Math.max(budgetMs * 1.2, ...finite));
  // Readers double at each step: a logarithmic x axis spaces them evenly.
  const x = (i: number) => left + (readers.length === 1 ? plotW / 2 : (i / (readers.length - 1)) * plotW);
  const y = (ms: number) => top + plotH - (Math.min(ms, yMax) / yMax) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="22" font-size="14" font-weight="bold">${escape(options.title)}</text>`,
  ];
  for (let i = 0; i <= 5; i++) {
    const value = (yMax / 5) * i;
    out.push(
      `<line x1="${left}" x2="${left + plotW}" y1="${y(value)}" y2="${y(value)}" stroke="#e5e5e5"/>`,
      `<text x="${left - 8}" y="${y(value) + 4}" text-anchor="end">${Math.round(value)}</text>`,
    );
  }
  readers.forEach((n, i) =>
    out.push(`<text x="${x(i)}" y="${top + plotH + 18}" text-anchor="middle">${n}</text>`),
  );
  out.push(
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" stroke="#333"/>`,
    `<line x1="${left}" x2="${left + plotW}" y1="${top + plotH}" y2="${top + plotH}" stroke="#333"/>`,
    `<text x="${left + plotW / 2}" y="${height - 16}" text-anchor="middle">concurrent readers</text>`,
    `<text transform="translate(18 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">p95 latency (ms)</text>`,
    `<line x1="${left}" x2="${left + plotW}" y1="${y(budgetMs)}" y2="${y(budgetMs)}" stroke="#555" stroke-dasharray="6 4"/>`,
    `<text x="${left + plotW - 4}" y="${y(budgetMs) - 6}" text-anchor="end" fill="#555">${escape(options.budgetLabel)}</text>`,
  );
  series.forEach((s, k) => {
    const colour = COLOURS[k % COLOURS.length]!;
    const points = s.values
      .map((v, i) => (Number.isFinite(v) ? `${x(i).toFixed(1)},${y(v).toFixed(1)}` : null))
      .filter((p): p is string => p !== null);
    out.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.join(' ')}"/>`);
    for (const p of points) {
      const [cx, cy] = p.split(',');
      out.push(`<circle cx="${cx}" cy="${cy}" r="3" fill="${colour}"/>`);
    }
    const ly = top + 10 + k * 20;
    out.push(
      `<line x1="${left + plotW + 16}" x2="${left + plotW + 40}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2"/>`,
      `<text x="${left + plotW + 46}" y="${ly + 4}">${escape(s.name)}</text>`,
    );
  });
  out.push('</svg>', '');
  return out.join('\n');
}
