/** Types of the layout analysis (page, box, cell, column) and the ink profiles it measures masks by. */
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

/** The runs of consecutive indices whose values pass `test`, as [start, end) pairs. */
export function runs(values: ArrayLike<number>, test: (v: number) => boolean): Array<[number, number]> {
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
export function profiles(mask: Uint8Array, width: number, box: Box): { x: Float64Array; y: Float64Array } {
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
export function lineProfile(mask: Uint8Array, width: number, box: Box, reach = 2): Float64Array {
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

/** The median of the values (the upper one of an even count; 0 when there are none). */
export function median(values: ArrayLike<number>): number {
  const sorted = Array.from(values).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
