/** Binarisation and deskew of a grey page: Otsu's threshold, the ink mask and the skew estimate. */
import type { Grey } from './geometry.ts';

/**
 * Otsu's threshold of a grey image, as the first grey value of the bright class: pixels below it are
 * ink. (Otsu splits into ≤ t and > t; a bilevel scan of 0 and 255 has t = 0, so the ink test must take
 * t + 1, or a pure black-and-white page has no ink at all.)
 */
export function otsu(image: Grey): number {
  const histogram = new Array<number>(256).fill(0);
  for (const v of image.data) histogram[v]!++;
  return otsuOf(histogram);
}

/** Otsu's threshold (as in `otsu`) of a histogram of grey values 0 … 255. */
export function otsuOf(histogram: number[]): number {
  let total = 0;
  let sum = 0;
  for (let i = 0; i < 256; i++) {
    total += histogram[i]!;
    sum += i * histogram[i]!;
  }
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
