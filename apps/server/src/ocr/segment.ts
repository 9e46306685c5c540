/**
 * Layout analysis of a vertical page (DESIGN.md §5), on a grey image where ink is dark: deskew, the text
 * frame, columns (ruled lines as peaks of the ink profile, otherwise gaps between inked runs), the centre
 * strip (版心), and character cells down each column. Pure functions over pixel arrays.
 */
export interface Grey {
  width: number;
  height: number;
  /** One byte per pixel, 0 black … 255 white. */
  data: Uint8Array;
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A character cell; `note` when it holds a small character of a double-line note (雙行小注). */
export interface Cell extends Box {
  note?: true;
}

export interface Column {
  box: Box;
  /** The centre strip (版心): title, chapter and leaf number, not body text. */
  centre: boolean;
  /** In reading order: down the column, a note's right line before its left line. */
  cells: Cell[];
}

export interface Layout {
  /** Degrees the page was turned by to stand upright (already applied to the image analysed). */
  skew: number;
  ruled: boolean;
  columns: Column[];
}

/**
 * Otsu's threshold of a grey image, as the first grey value of the bright class: pixels below it are
 * ink. (Otsu splits into ≤ t and > t; a bilevel scan of 0 and 255 has t = 0, so the ink test must take
 * t + 1, or a pure black-and-white page has no ink at all.)
 */
export function otsu(image: Grey): number {
  const histogram = new Array<number>(256).fill(0);
  for (const v of image.data) histogram[v]!++;
  const total = image.data.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * histogram[i]!;
  let sumB = 0;
  let weightB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    weightB += histogram[t]!;
    if (weightB === 0) continue;
    const weightF = total - weightB;
    if (weightF === 0) break;
    sumB += t * histogram[t]!;
    const meanB = sumB / weightB;
    const meanF = (sum - sumB) / weightF;
    const between = weightB * weightF * (meanB - meanF) ** 2;
    if (between > best) {
      best = between;
      threshold = t + 1;
    }
  }
  return threshold;
}

/** Ink mask: 1 where the pixel is darker than the threshold. */
export function inkMask(image: Grey, threshold: number): Uint8Array {
  const mask = new Uint8Array(image.data.length);
  for (let i = 0; i < mask.length; i++) mask[i] = image.data[i]! < threshold ? 1 : 0;
  return mask;
}

/**
 * The skew angle (degrees, within ±maxDegrees) that makes columns most vertical: the angle whose
 * sheared x-profile of ink has the largest sum of squares (sharp peaks and gaps).
 */
export function estimateSkew(
  mask: Uint8Array,
  width: number,
  height: number,
  maxDegrees = 3,
  step = 0.25,
): number {
  const points: Array<[number, number]> = [];
  const stride = Math.max(1, Math.floor(Math.sqrt((width * height) / 200_000)));
  for (let y = 0; y < height; y += stride) {
    for (let x = 0; x < width; x += stride) if (mask[y * width + x]) points.push([x, y]);
  }
  let best = 0;
  let bestScore = -1;
  // Bins as wide as the sampling stride: finer bins would favour 0°, where the sampled grid lines up.
  for (let degrees = -maxDegrees; degrees <= maxDegrees + 1e-9; degrees += step) {
    const tan = Math.tan((degrees * Math.PI) / 180);
    const offset = Math.ceil((height * Math.abs(tan)) / stride) + 1;
    const profile = new Float64Array(Math.ceil(width / stride) + 2 * offset + 2);
    for (const [x, y] of points) profile[Math.round((x - (y - height / 2) * tan) / stride) + offset]! += 1;
    let score = 0;
    for (const v of profile) score += v * v;
    if (score > bestScore * 1.0005) {
      bestScore = score;
      best = degrees;
    }
  }
  return Math.round(best * 100) / 100;
}

function runs(values: ArrayLike<number>, test: (v: number) => boolean): Array<[number, number]> {
  const result: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i < values.length; i++) {
    if (test(values[i]!)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      result.push([start, i]);
      start = -1;
    }
  }
  if (start >= 0) result.push([start, values.length]);
  return result;
}

/** Column and row ink counts of a region of the mask. */
function profiles(mask: Uint8Array, width: number, box: Box): { x: Float64Array; y: Float64Array } {
  const x = new Float64Array(box.right - box.left);
  const y = new Float64Array(box.bottom - box.top);
  for (let j = box.top; j < box.bottom; j++) {
    const row = j * width;
    for (let i = box.left; i < box.right; i++) {
      if (mask[row + i]) {
        x[i - box.left]!++;
        y[j - box.top]!++;
      }
    }
  }
  return { x, y };
}

/**
 * The text frame and its columns. Ruled pages: vertical lines are x positions inked over most of the
 * frame's height; columns lie between them. Unruled pages: columns are the inked runs between gaps of
 * the smoothed x-profile. The column closest to the middle of a ruled page with a dark band (the
 * fish-tail marks) or a width unlike its neighbours' is the centre strip.
 */
export function analyse(
  mask: Uint8Array,
  width: number,
  height: number,
  /** A cleaner mask (specks removed) for the character cells; the ruled lines may be gone from it. */
  cellMask: Uint8Array = mask,
): Omit<Layout, 'skew'> {
  const page: Box = { left: 0, top: 0, right: width, bottom: height };
  const { x: px, y: py } = profiles(mask, width, page);
  // Horizontal frame lines: rows inked across most of the width.
  const frameRows = runs(py, (v) => v > width * 0.5);
  const frameCols = runs(px, (v) => v > height * 0.5);
  const ruled = frameCols.length >= 4;
  let frame: Box;
  if (frameRows.length >= 2 && frameCols.length >= 2) {
    frame = {
      left: frameCols[0]![1],
      right: frameCols[frameCols.length - 1]![0],
      top: frameRows[0]![1],
      bottom: frameRows[frameRows.length - 1]![0],
    };
  } else {
    const inkedX = runs(px, (v) => v > 0);
    const inkedY = runs(py, (v) => v > 0);
    frame = {
      left: inkedX[0]?.[0] ?? 0,
      right: inkedX.at(-1)?.[1] ?? width,
      top: inkedY[0]?.[0] ?? 0,
      bottom: inkedY.at(-1)?.[1] ?? height,
    };
  }
  const frameHeight = frame.bottom - frame.top;
  const { x: fx } = profiles(mask, width, frame);

  // Columns as inked runs of the smoothed x-profile between two positions; specks and marginal marks
  // (runs much narrower than the others) are dropped.
  const inkRuns = (from: number, to: number): Array<[number, number]> => {
    const smooth = new Float64Array(to - from);
    const r = 3;
    for (let i = 0; i < smooth.length; i++) {
      let sum = 0;
      for (let k = -r; k <= r; k++)
        sum += fx[Math.min(fx.length - 1, Math.max(0, from - frame.left + i + k))]!;
      smooth[i] = sum / (2 * r + 1);
    }
    const peak = Math.max(0, ...smooth);
    if (peak === 0) return [];
    const found = runs(smooth, (v) => v > peak * 0.04).map(
      ([a, b]) => [a + from, b + from] as [number, number],
    );
    const median = [...found.map(([a, b]) => b - a)].sort((a, b) => a - b)[Math.floor(found.length / 2)] ?? 0;
    return found.filter(([a, b]) => b - a > median * 0.35);
  };

  let spans: Array<[number, number]>;
  if (ruled) {
    const lines = runs(fx, (v) => v > frameHeight * 0.6).map(
      ([a, b]) => [a + frame.left, b + frame.left] as [number, number],
    );
    const edges: Array<[number, number]> = [
      [frame.left - 1, frame.left],
      ...lines,
      [frame.right, frame.right + 1],
    ];
    spans = [];
    for (let i = 0; i + 1 < edges.length; i++) {
      const a = edges[i]![1];
      const b = edges[i + 1]![0];
      if (b - a <= 4) continue;
      // A frame whose columns are not ruled (only the border and the centre strip are): the space
      // between two lines then holds several columns, found by their ink.
      // (Thin runs beside a column's text, left over from the rules, do not count.)
      const found = inkRuns(a, b);
      const widest = Math.max(0, ...found.map(([p, q]) => q - p));
      const inside = found.filter(([p, q]) => q - p >= widest * 0.5);
      if (inside.length > 1) spans.push(...inside);
      else spans.push([a, b]);
    }
  } else {
    spans = inkRuns(frame.left, frame.right);
  }

  // Specks in an empty ruled column make runs a few pixels wide: not columns.
  const widest = Math.max(0, ...spans.map(([a, b]) => b - a));
  spans = spans.filter(([a, b]) => b - a >= Math.max(4, widest * 0.3));
  const widths = spans.map(([a, b]) => b - a);
  const typical = [...widths].sort((a, b) => a - b)[Math.floor(widths.length / 2)] ?? 0;
  const middle = width / 2;
  let centreIndex = -1;
  if (ruled && spans.length >= 2) {
    const nearest = spans
      .map(([a, b], i) => ({ i, d: Math.abs((a + b) / 2 - middle) }))
      .sort((p, q) => p.d - q.d)[0]!;
    if (nearest.d < width * 0.06) centreIndex = nearest.i;
  }

  const columns: Column[] = spans.map(([a, b], i) => {
    const box: Box = { left: a, right: b, top: frame.top, bottom: frame.bottom };
    return {
      box,
      centre: i === centreIndex,
      cells: cellsOf(cellMask, width, box, i === centreIndex ? typical : b - a),
    };
  });
  // Reading order: right to left.
  columns.sort((p, q) => q.box.left - p.box.left);
  return { ruled, columns: columns.filter((c) => c.cells.length > 0) };
}

/**
 * Character cells of a column, in reading order. Double-line notes are found first (see
 * {@link noteZones}); each is read as two narrow columns, right then left. The rest: inked runs of the
 * y-profile, trimmed to their ink; runs much shorter than a character (parts of 三, 二) join their
 * neighbour, runs much longer are divided evenly.
 */
export function cellsOf(mask: Uint8Array, width: number, column: Box, pitch: number): Cell[] {
  const inset = Math.max(1, Math.round((column.right - column.left) * 0.04));
  const inner: Box = { ...column, left: column.left + inset, right: column.right - inset };
  if (inner.right <= inner.left) return [];
  const zones = noteZones(mask, width, inner, pitch);
  const groups: Array<{ top: number; cells: Cell[] }> = [];
  for (const zone of zones) {
    const middle = Math.round((inner.left + inner.right) / 2);
    const halfPitch = (inner.right - inner.left) / 2;
    const right = runCells(mask, width, { ...zone, left: middle, right: inner.right }, halfPitch, []);
    const left = runCells(mask, width, { ...zone, left: inner.left, right: middle }, halfPitch, []);
    groups.push({ top: zone.top, cells: [...right, ...left].map((cell) => ({ ...cell, note: true })) });
  }
  for (const cell of runCells(mask, width, inner, pitch, zones))
    groups.push({ top: cell.top, cells: [cell] });
  return groups.sort((a, b) => a.top - b.top).flatMap((group) => group.cells);
}

/**
 * Double-line notes in a column: stretches of rows where the middle of the column is blank while ink
 * lies on both sides, and every inked run down each side is shorter than half the column is wide
 * (so 門, 北, 八, whose halves run the character's full height, are not taken for notes), with two or
 * more rows down the right line.
 */
export function noteZones(mask: Uint8Array, width: number, inner: Box, pitch: number): Box[] {
  const w = inner.right - inner.left;
  const bandHalf = Math.max(1, Math.round(w * 0.03));
  const middle = Math.round((inner.left + inner.right) / 2);
  const rows = inner.bottom - inner.top;
  const centre = new Uint8Array(rows);
  const leftInk = new Uint8Array(rows);
  const rightInk = new Uint8Array(rows);
  for (let j = 0; j < rows; j++) {
    const row = (inner.top + j) * width;
    for (let i = inner.left; i < inner.right; i++) {
      if (!mask[row + i]) continue;
      if (Math.abs(i - middle) <= bandHalf) centre[j] = 1;
      else if (i < middle) leftInk[j] = 1;
      else rightInk[j] = 1;
    }
  }
  // Candidate stretches: rows with nothing in the middle band. Where one begins or ends at a stroke
  // through the middle, the rows up to the first blank row belong to that character (the legs under the
  // top of 而, the bottom of 習), so the stretch starts and ends at a row blank across the column.
  const inked = (j: number) => leftInk[j] === 1 || rightInk[j] === 1;
  const zones: Box[] = [];
  for (const [a, b] of runs(centre, (v) => v === 0)) {
    let top = a;
    let bottom = b;
    if (a > 0) while (top < bottom && inked(top)) top++;
    if (b < rows) while (bottom > top && inked(bottom - 1)) bottom--;
    while (top < bottom && !inked(top)) top++;
    while (bottom > top && !inked(bottom - 1)) bottom--;
    if (bottom - top < pitch * 0.3) continue;
    const side = (ink: Uint8Array) => {
      const found = runs(ink.subarray(top, bottom), (v) => v === 1);
      // Gaps of a pixel or two inside a character (strokes that do not quite touch) are not gaps.
      const joined: Array<[number, number]> = [];
      for (const run of found) {
        const last = joined.at(-1);
        if (last && run[0] - last[1] <= Math.max(1, pitch * 0.03)) last[1] = run[1];
        else joined.push([run[0], run[1]]);
      }
      return joined;
    };
    const left = side(leftInk);
    const right = side(rightInk);
    // A single row of two small characters looks like one character split down the middle (非, 北):
    // a note is taken from two rows on (three characters or more).
    if (left.length === 0 || right.length < 2) continue;
    const longest = Math.max(...[...left, ...right].map(([p, q]) => q - p));
    if (longest > pitch * 0.5) continue;
    zones.push({ left: inner.left, right: inner.right, top: inner.top + top, bottom: inner.top + bottom });
  }
  return zones;
}

/** Cells of main text: the y-runs of a region outside the given note zones. */
function runCells(mask: Uint8Array, width: number, inner: Box, pitch: number, skip: Box[]): Cell[] {
  const { y } = profiles(mask, width, inner);
  for (const zone of skip) y.fill(0, Math.max(0, zone.top - inner.top), Math.max(0, zone.bottom - inner.top));
  const minInk = Math.max(1, (inner.right - inner.left) * 0.02);
  let spans = runs(y, (v) => v >= minInk).map(([a, b]) => [a + inner.top, b + inner.top] as [number, number]);
  const size = Math.max(4, pitch * 0.92);
  // Join fragments: while a run is short and the gap to the next is small, merge.
  const joined: Array<[number, number]> = [];
  for (const span of spans) {
    const last = joined.at(-1);
    if (
      last &&
      span[1] - last[0] <= size * 1.05 &&
      (last[1] - last[0] < size * 0.6 || span[1] - span[0] < size * 0.35)
    ) {
      last[1] = span[1];
    } else joined.push([span[0], span[1]]);
  }
  spans = joined.filter(([a, b]) => b - a >= Math.max(3, size * 0.12));
  const cells: Cell[] = [];
  for (const [a, b] of spans) {
    const n = Math.max(1, Math.round((b - a) / size));
    for (let k = 0; k < n; k++) {
      const top = Math.round(a + ((b - a) * k) / n);
      const bottom = Math.round(a + ((b - a) * (k + 1)) / n);
      cells.push({ left: inner.left, right: inner.right, top, bottom });
    }
  }
  return cells;
}
