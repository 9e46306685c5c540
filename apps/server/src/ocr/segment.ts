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
 * Per x of a region: the rows with ink within `reach` pixels of x. A ruled line that leans or wavers by a
 * few pixels over the page's height is counted whole (the plain count splits it over neighbouring x).
 */
function lineProfile(mask: Uint8Array, width: number, box: Box, reach = 2): Float64Array {
  const x = new Float64Array(box.right - box.left);
  const hit = new Uint8Array(box.right - box.left);
  for (let j = box.top; j < box.bottom; j++) {
    const row = j * width;
    hit.fill(0);
    for (let i = box.left; i < box.right; i++)
      if (mask[row + i])
        for (let k = Math.max(box.left, i - reach); k <= Math.min(box.right - 1, i + reach); k++)
          hit[k - box.left] = 1;
    for (let i = 0; i < hit.length; i++) x[i]! += hit[i]!;
  }
  return x;
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
  let { x: px, y: py } = profiles(mask, width, page);
  // Dark scanner margins (a black background round a photographed page): lines inked across most of
  // the image from an edge inwards are cleared, so they are neither frame nor column.
  const margin = { left: 0, right: width, top: 0, bottom: height };
  while (margin.left < width && px[margin.left]! > height * 0.6) margin.left++;
  while (margin.right > margin.left && px[margin.right - 1]! > height * 0.6) margin.right--;
  while (margin.top < height && py[margin.top]! > width * 0.6) margin.top++;
  while (margin.bottom > margin.top && py[margin.bottom - 1]! > width * 0.6) margin.bottom--;
  if (margin.left > 0 || margin.top > 0 || margin.right < width || margin.bottom < height) {
    const clear = (m: Uint8Array) => {
      const copy = Uint8Array.from(m);
      for (let j = 0; j < height; j++) {
        const row = j * width;
        if (j < margin.top || j >= margin.bottom) copy.fill(0, row, row + width);
        else {
          copy.fill(0, row, row + margin.left);
          copy.fill(0, row + margin.right, row + width);
        }
      }
      return copy;
    };
    const same = cellMask === mask;
    mask = clear(mask);
    cellMask = same ? mask : clear(cellMask);
    ({ x: px, y: py } = profiles(mask, width, page));
  }
  /**
   * From the edge `from` of a line (stepping down with `step` 1, up with −1; within 1 % of the height),
   * past the rows inked across 40 % of `box`: the rest of a line that is thick or not quite level.
   */
  const pastLine = (from: number, step: 1 | -1, box: Box): number => {
    const reach = Math.round(height * 0.01);
    const wide = (box.right - box.left) * 0.4;
    const inked = (j: number) => {
      let ink = 0;
      for (let i = box.left; i < box.right; i++) ink += mask[j * width + i]!;
      return ink > wide;
    };
    let j = from;
    while (Math.abs(j - from) < reach && inked(step > 0 ? j : j - 1)) j += step;
    return j;
  };
  // Horizontal frame lines: rows inked across most of the width.
  const frameRows = runs(py, (v) => v > width * 0.5);
  const frameCols = runs(px, (v) => v > height * 0.5);
  const ruled = frameCols.length >= 4;
  let frame: Box;
  /** Whether the frame is the box drawn round the text (not the ink's extent). */
  const framed = frameRows.length >= 2 && frameCols.length >= 2;
  if (framed) {
    frame = {
      left: frameCols[0]![1],
      right: frameCols[frameCols.length - 1]![0],
      top: frameRows[0]![1],
      bottom: frameRows[frameRows.length - 1]![0],
    };
    // The rest of a frame line that is thick or not quite level lies inside: rows right below (above)
    // it still inked across a good part of the frame's width are not text.
    frame.top = pastLine(frame.top, 1, frame);
    frame.bottom = pastLine(frame.bottom, -1, frame);
    // A side of the frame (or a rule near it) that is faint or leans may be inked over less than half
    // the image's height at any one x: beyond the sides found, a line down most of the frame that the
    // frame's top and bottom lines reach is the true side.
    const side = lineProfile(mask, width, { left: 0, right: width, top: frame.top, bottom: frame.bottom });
    const [topLine, bottomLine] = [frameRows[0]!, frameRows[frameRows.length - 1]!];
    const closes = (i: number) =>
      [topLine, bottomLine].every(([a, b]) => {
        for (let j = Math.max(0, a - 2); j < Math.min(height, b + 2); j++)
          for (let k = Math.max(0, i - 3); k <= Math.min(width - 1, i + 3); k++)
            if (mask[j * width + k]) return true;
        return false;
      });
    // (A line is thin: a column of marginal text inked down the page is wider. And it lies columns away:
    // a line just outside the side found is the outer line of a double border or a margin rule.)
    const tall = (i: number) => side[i]! > (frame.bottom - frame.top) * 0.5;
    const thin = Math.round(width * 0.006) + 4;
    const away = Math.round((frame.right - frame.left) * 0.08);
    // (Only a frame that is one: two lines of one double border a few pixels apart are not sides.)
    const real = frame.right - frame.left >= width * 0.3;
    for (let i = 0; real && i < frame.left - away; i++) {
      if (!tall(i)) continue;
      let end = i;
      while (end + 1 < frame.left && tall(end + 1)) end++;
      if (end - i + 1 <= thin && closes(Math.round((i + end) / 2))) {
        frame.left = end + 1;
        break;
      }
      i = end;
    }
    for (let i = width - 1; real && i > frame.right + away; i--) {
      if (!tall(i)) continue;
      let end = i;
      while (end - 1 > frame.right && tall(end - 1)) end--;
      if (i - end + 1 <= thin && closes(Math.round((i + end) / 2))) {
        frame.right = end;
        break;
      }
      i = end;
    }
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
  // Registers (上下欄, as on Tripitaka pages printed in two tiers): a frame crossed by a rule from side
  // to side is read one register after the other, top first, each from right to left. Thin bands
  // between rules (a double frame line) are no register.
  const registers: Box[] = [];
  /**
   * Whether the frame's side lines run down (90 % of the rows of) a register: what lies above or below
   * the box drawn round the text (paper, the scanner's background) is cut off by its rule but is not
   * a register.
   */
  const walled = (register: Box) =>
    (
      [
        [frame.left - 4, frame.left],
        [frame.right, frame.right + 4],
      ] as const
    ).every(([a, b]) => {
      let rows = 0;
      for (let j = register.top; j < register.bottom; j++) {
        for (let i = Math.max(0, a - 2); i < Math.min(width, b + 2); i++)
          if (mask[j * width + i]) {
            rows++;
            break;
          }
      }
      return rows >= (register.bottom - register.top) * 0.9;
    });
  {
    const whole = frame;
    const minHeight = (whole.bottom - whole.top) * 0.1;
    // Only a drawn frame is cut (where the frame is the ink's extent, its rules are the frame's own
    // lines), and not by rules near its top or bottom (a double frame line).
    const cuts = framed
      ? frameRows.filter(([a, b]) => a > whole.top + minHeight && b < whole.bottom - minHeight)
      : [];
    let top = whole.top;
    for (const [a, b] of [...cuts, [whole.bottom, whole.bottom] as [number, number]]) {
      const register: Box = { ...whole, top, bottom: a };
      // The rest of a rule that is thick or not quite level (as at the frame's own lines).
      if (top !== whole.top) register.top = pastLine(top, 1, whole);
      if (a !== whole.bottom) register.bottom = pastLine(a, -1, whole);
      if (register.bottom - register.top >= minHeight && (!framed || walled(register)))
        registers.push(register);
      top = b;
    }
    if (registers.length === 0) registers.push(whole);
  }
  const columns = registers.flatMap((register) => columnsIn(register));
  return { ruled, columns: columns.filter((c) => c.cells.length > 0) };

  /** The columns of one register of the frame (the whole frame, mostly), right to left. */
  function columnsIn(frame: Box): Column[] {
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
      const median =
        [...found.map(([a, b]) => b - a)].sort((a, b) => a - b)[Math.floor(found.length / 2)] ?? 0;
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
    // The centre strip (版心), by its shape wherever it lies (the middle of a whole leaf, the edge of a
    // half leaf): a fish-tail (魚尾), a solid black band across the strip, or a strip much narrower than
    // the columns at the edge of the frame or in the middle of a ruled page.
    const inside = { top: frame.top + frameHeight * 0.03, bottom: frame.bottom - frameHeight * 0.03 };
    const coverage = (j: number, [a, b]: [number, number]) => {
      let ink = 0;
      for (let i = a; i < b; i++) ink += mask[j * width + i]!;
      return ink / Math.max(1, b - a);
    };
    // A band that runs on across the frame is a frame line or a stain, not a fish-tail.
    const frameSpan: [number, number] = [frame.left, frame.right];
    const fishTail = (k: number) => {
      if (!ruled) return false;
      const span = spans[k]!;
      let solid = 0;
      for (let j = Math.round(inside.top); j < Math.round(inside.bottom); j++) {
        const alone = coverage(j, span) >= 0.7 && coverage(j, frameSpan) < 0.4;
        solid = alone ? solid + 1 : 0;
        if (solid >= Math.max(4, (span[1] - span[0]) * 0.12)) return true;
      }
      return false;
    };
    const nearestMiddle = spans
      .map(([a, b], i) => ({ i, d: Math.abs((a + b) / 2 - width / 2) }))
      .sort((p, q) => p.d - q.d)[0];
    const centre = spans.map((span, i) => {
      if (spans.length < 2) return false;
      const narrow = span[1] - span[0] < typical * 0.6;
      // (Spans run left to right.)
      const atEdge = i === 0 || i === spans.length - 1;
      const inMiddle = ruled && nearestMiddle?.i === i && nearestMiddle.d < width * 0.06;
      return fishTail(i) || (narrow && (atEdge || inMiddle));
    });

    const columns: Column[] = spans.map(([a, b], i) => {
      const box: Box = { left: a, right: b, top: frame.top, bottom: frame.bottom };
      const cells = cellsOf(cellMask, width, box, centre[i] ? typical : b - a);
      // What is left of a frame line or rule that is thick, doubled or wavy: a flat cell at an end of
      // the column with ink at the column's very end (text keeps a margin from the frame; an 一 there
      // does not touch it).
      // Or a flat cell at an end through which a line runs on across the frame (the frame's edge then
      // lies beyond it, as where the frame is the ink's extent); a character's stroke stays in its column.
      const flat = (cell: Cell, ratio: number) => cell.bottom - cell.top < (b - a) * ratio;
      // A line through the row: ink with at most 2 px gaps from half a column before the column to half a
      // column after it (to the frame's edge at either end). A stroke ends inside its column, and the
      // rules between columns are separated from it by paper.
      const from = Math.max(frame.left, Math.round(a - (b - a) / 2));
      const to = Math.min(frame.right, Math.round(b + (b - a) / 2));
      const lineThrough = (j: number) => {
        let gap = 0;
        for (let i = from; i < to; i++) {
          gap = cellMask[j * width + i] ? 0 : gap + 1;
          if (gap > 2) return false;
        }
        return true;
      };
      // Or, where the line is wavy or broken, a row inked across 60 % of the frame (characters of
      // other columns at the same height do not fill that much).
      const crossed = (cell: Cell) => {
        for (let j = cell.top; j < cell.bottom; j++)
          if (lineThrough(j) || coverage(j, frameSpan) >= 0.6) return true;
        return false;
      };
      // (Not a note's cell: a row of two small characters is flat, and rows of them line up across
      // the columns.)
      const remnant = (cell: Cell, touches: boolean) =>
        (flat(cell, 0.35) && touches) || (!cell.note && flat(cell, 0.5) && crossed(cell));
      while (cells.length > 0 && remnant(cells[0]!, cells[0]!.top <= box.top + 1)) cells.shift();
      while (cells.length > 0 && remnant(cells.at(-1)!, cells.at(-1)!.bottom >= box.bottom - 1)) cells.pop();
      return { box, centre: centre[i]!, cells };
    });
    // Reading order: right to left.
    columns.sort((p, q) => q.box.left - p.box.left);
    return columns;
  }
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
    const halfPitch = (inner.right - inner.left) / 2;
    const right = runCells(mask, width, { ...zone, left: zone.split, right: inner.right }, halfPitch, []);
    const left = runCells(mask, width, { ...zone, left: inner.left, right: zone.split }, halfPitch, []);
    groups.push({ top: zone.top, cells: [...right, ...left].map((cell) => ({ ...cell, note: true })) });
  }
  for (const cell of runCells(mask, width, inner, pitch, zones))
    groups.push({ top: cell.top, cells: [cell] });
  return groups.sort((a, b) => a.top - b.top).flatMap((group) => group.cells);
}

/**
 * Double-line notes in a column: stretches where the column splits into two narrow lines. The split
 * is found as a seam: the path down the column, between 30 % and 70 % of its width and moving at most a
 * pixel a row (notes wander off the exact middle), that crosses the least ink. Main characters put a
 * stroke across any such path every few rows; between the two lines of a note it runs blank, but for
 * the odd stroke. A stretch is rows where the seam crosses little ink over a character's height, trimmed
 * to rows blank across the column, with ink in the right line. It is a note when its characters are
 * small: the inked runs down each line (touching characters joined) are at most about half a main
 * character high (so 門, 北, 明, whose halves run the character's full height, are not taken for
 * notes), or the split runs on for more than one and a half characters (no main character is that tall).
 */
export function noteZones(
  mask: Uint8Array,
  width: number,
  inner: Box,
  pitch: number,
): Array<Box & { split: number }> {
  const w = inner.right - inner.left;
  const rows = inner.bottom - inner.top;
  if (w < 8 || rows < 4) return [];
  const from = Math.round(w * 0.3);
  const to = Math.round(w * 0.7);
  const span = to - from + 1;
  // Seam by dynamic programming: cost[j][x] = ink at (x, j) + least cost above within one pixel.
  const cost = new Float64Array(rows * span);
  const back = new Int8Array(rows * span);
  for (let j = 0; j < rows; j++) {
    const row = (inner.top + j) * width + inner.left;
    for (let k = 0; k < span; k++) {
      const here = mask[row + from + k] ? 1 : 0;
      if (j === 0) {
        cost[k] = here;
        continue;
      }
      let best = cost[(j - 1) * span + k]!;
      let move = 0;
      if (k > 0 && cost[(j - 1) * span + k - 1]! < best) {
        best = cost[(j - 1) * span + k - 1]!;
        move = -1;
      }
      if (k + 1 < span && cost[(j - 1) * span + k + 1]! < best) {
        best = cost[(j - 1) * span + k + 1]!;
        move = 1;
      }
      cost[j * span + k] = best + here;
      back[j * span + k] = move;
    }
  }
  const seam = new Int32Array(rows);
  let k = 0;
  for (let i = 1; i < span; i++) {
    const last = (rows - 1) * span;
    if (
      cost[last + i]! < cost[last + k]! ||
      (cost[last + i] === cost[last + k] && Math.abs(i - span / 2) < Math.abs(k - span / 2))
    )
      k = i;
  }
  for (let j = rows - 1; j >= 0; j--) {
    seam[j] = inner.left + from + k;
    k += back[j * span + k]!;
  }
  const centre = new Uint8Array(rows);
  const leftInk = new Uint8Array(rows);
  const rightInk = new Uint8Array(rows);
  for (let j = 0; j < rows; j++) {
    const row = (inner.top + j) * width;
    if (mask[row + seam[j]!]) centre[j] = 1;
    for (let i = inner.left; i < inner.right; i++) {
      if (!mask[row + i] || i === seam[j]) continue;
      if (i < seam[j]!) leftInk[j] = 1;
      else rightInk[j] = 1;
    }
  }
  const inked = (j: number) => leftInk[j] === 1 || rightInk[j] === 1;
  // Rows whose neighbourhood (a main character's height) has the seam cross ink at most once, briefly.
  const window = Math.max(3, Math.round(pitch * 0.8));
  const crossings = new Int32Array(rows + 1);
  const crossed = new Int32Array(rows + 1);
  for (let j = 0; j < rows; j++) {
    crossings[j + 1] = crossings[j]! + (centre[j] === 1 && (j === 0 || centre[j - 1] === 0) ? 1 : 0);
    crossed[j + 1] = crossed[j]! + centre[j]!;
  }
  const open = new Uint8Array(rows);
  for (let j = 0; j < rows; j++) {
    const a = Math.max(0, j - (window >> 1));
    const b = Math.min(rows, a + window);
    const events = crossings[b]! - crossings[a]!;
    if (events <= 1 && crossed[b]! - crossed[a]! <= Math.max(2, pitch * 0.06)) open[j] = 1;
  }
  const stretches = runs(open, (v) => v === 1);
  const zones: Array<Box & { split: number }> = [];
  for (const [a, b] of stretches) {
    let top = a;
    let bottom = b;
    // Where a stretch begins or ends at a stroke through the band, the rows up to the first blank row
    // belong to that character (the legs under the top of 而, the bottom of 習).
    if (a > 0) while (top < bottom && inked(top)) top++;
    if (b < rows) while (bottom > top && inked(bottom - 1)) bottom--;
    while (top < bottom && !inked(top)) top++;
    while (bottom > top && !inked(bottom - 1)) bottom--;
    if (bottom - top < pitch * 0.3) continue;
    // Blocks of rows inked anywhere across the column (joined over a pixel or two). A main character
    // is about square; a row of two note characters side by side about twice as wide as high, with the
    // seam running clear between them (it cuts through 二, 三, 四, whose strokes cross the column);
    // note characters whose rows do not line up chain into a block much taller than wide, with short
    // runs down each line.
    const blocks: Array<{ top: number; bottom: number; aspect: number; clear: boolean; sides: number }> = [];
    const gapJoin = Math.max(1, pitch * 0.03);
    for (const run of runs(
      Uint8Array.from({ length: bottom - top }, (_, j) => (inked(top + j) ? 1 : 0)),
      (v) => v === 1,
    )) {
      const last = blocks.at(-1);
      if (last && top + run[0] - last.bottom <= gapJoin) last.bottom = top + run[1];
      else blocks.push({ top: top + run[0], bottom: top + run[1], aspect: 0, clear: true, sides: 0 });
    }
    for (const block of blocks) {
      let minX = inner.right;
      let maxX = inner.left;
      let crossed = 0;
      let leftRows = 0;
      let rightRows = 0;
      for (let j = block.top; j < block.bottom; j++) {
        crossed += centre[j]!;
        leftRows += leftInk[j]!;
        rightRows += rightInk[j]!;
        const row = (inner.top + j) * width;
        for (let i = inner.left; i < inner.right; i++) {
          if (!mask[row + i]) continue;
          if (i < minX) minX = i;
          if (i > maxX) maxX = i;
        }
      }
      block.aspect = (block.bottom - block.top) / Math.max(1, maxX - minX + 1);
      block.clear = crossed <= (block.bottom - block.top) * 0.1;
      block.sides = (leftRows > 0 ? 1 : 0) + (rightRows > 0 ? 1 : 0);
    }
    // Main characters taken into the stretch at either end are not notes (a note's last character,
    // alone on its line, has ink on one side of the seam only).
    const mainLike = (block: (typeof blocks)[number]) =>
      block.aspect >= 0.75 && block.aspect < 1.6 && block.sides === 2;
    let first = 0;
    let last = blocks.length;
    while (first < last && (mainLike(blocks[first]!) || blocks[first]!.aspect < 0.25)) first++;
    while (last > first && (mainLike(blocks[last - 1]!) || blocks[last - 1]!.aspect < 0.25)) last--;
    const kept = blocks.slice(first, last);
    if (kept.length === 0) continue;
    const zoneTop = kept[0]!.top;
    const zoneBottom = kept.at(-1)!.bottom;
    const side = (ink: Uint8Array) => {
      const found = runs(ink.subarray(zoneTop, zoneBottom), (v) => v === 1);
      // Gaps of a pixel or two inside a character (strokes that do not quite touch) are not gaps.
      const joined: Array<[number, number]> = [];
      for (const run of found) {
        const previous = joined.at(-1);
        if (previous && run[0] - previous[1] <= gapJoin) previous[1] = run[1];
        else joined.push([run[0], run[1]]);
      }
      return joined.filter(([p, q]) => q - p >= Math.max(2, pitch * 0.05));
    };
    const left = side(leftInk);
    const right = side(rightInk);
    if (left.length === 0 || right.length === 0) continue;
    // (Blocks much flatter than a row of notes are strokes: 一, a rule, the frame; they say nothing.)
    const shaped = kept
      .filter((block) => block.aspect >= 0.3 && (block.clear || block.aspect >= 0.75))
      .map((block) => block.aspect)
      .sort((p, q) => p - q);
    const flat = shaped.length >= 2 && shaped[Math.floor(shaped.length / 2)]! <= 0.65;
    const sideTypical = median([...left, ...right].map(([p, q]) => q - p)) / (inner.right - inner.left);
    const chained =
      kept.length <= 2 &&
      kept.some((block) => block.aspect >= 1.6) &&
      left.length >= 3 &&
      right.length >= 3 &&
      sideTypical <= 0.45;
    if (!flat && !chained) continue;
    zones.push({
      left: inner.left,
      right: inner.right,
      top: inner.top + zoneTop,
      bottom: inner.top + zoneBottom,
      split: Math.round(median(seam.subarray(zoneTop, zoneBottom))),
    });
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
  // The height of this column's characters, from its runs that hold one (when there are enough): a
  // written hand's characters can be much shorter than the column is wide, and two that touch then
  // make a run of less than two pitches.
  const single = spans.map(([a, b]) => b - a).filter((h) => h >= size * 0.5 && h <= size * 1.2);
  const unit = single.length >= 3 ? Math.max(size * 0.6, Math.min(size, median(single) * 1.08)) : size;
  const cells: Cell[] = [];
  for (const [a, b] of spans) {
    const n = Math.max(1, Math.round((b - a) / unit));
    // Cuts where the least ink crosses the column near each even division (touching characters meet
    // at a thin stroke).
    const cuts = [a];
    for (let k = 1; k < n; k++) {
      const even = a + ((b - a) * k) / n;
      const reach = ((b - a) / n) * 0.2;
      let best = Math.round(even);
      for (let j = Math.round(even - reach); j <= Math.round(even + reach); j++)
        if (y[j - inner.top]! < y[best - inner.top]!) best = j;
      cuts.push(best);
    }
    cuts.push(b);
    for (let k = 0; k < n; k++)
      cells.push({ left: inner.left, right: inner.right, top: cuts[k]!, bottom: cuts[k + 1]! });
  }
  return cells;
}

function median(values: ArrayLike<number>): number {
  const sorted = Array.from(values).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
