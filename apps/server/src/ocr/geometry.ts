/** The OCR stages' shared types: a grey image, a box, and the runs of a profile. */
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
