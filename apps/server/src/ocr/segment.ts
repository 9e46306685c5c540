/**
 * Layout analysis of a vertical page (DESIGN.md §5), on a grey image where ink is dark: deskew
 * (binarize.ts), the text frame and its registers (here), columns (ruled lines as peaks of the ink
 * profile, otherwise gaps between inked runs) and the centre strip (版心) (columns.ts), and character
 * cells down each column (cells.ts). Pure functions over pixel arrays.
 */
import { columnsIn } from './columns.ts';
import { lineProfile, profiles, runs, type Box, type Layout } from './segment-common.ts';

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
  const columns = registers.flatMap((register) => columnsIn(register, { mask, cellMask, width, ruled }));
  return { ruled, columns: columns.filter((c) => c.cells.length > 0) };
}
