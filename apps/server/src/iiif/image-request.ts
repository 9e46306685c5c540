/**
 * IIIF Image API 3.0 request parsing and resolution (https://iiif.io/api/image/3.0/): region, size,
 * rotation, quality and format, each checked as the specification says, so a malformed request gets
 * a 400 naming its problem. Pure functions: no I/O.
 */
export class IiifRequestError extends Error {
  constructor(
    readonly status: 400 | 404 | 501,
    message: string,
  ) {
    super(message);
    this.name = 'IiifRequestError';
  }
}

export type Region =
  | { kind: 'full' }
  | { kind: 'square' }
  | { kind: 'pixels'; x: number; y: number; w: number; h: number }
  | { kind: 'percent'; x: number; y: number; w: number; h: number };

export type Size = { upscale: boolean } & (
  | { kind: 'max' }
  | { kind: 'width'; w: number }
  | { kind: 'height'; h: number }
  | { kind: 'percent'; n: number }
  | { kind: 'exact'; w: number; h: number }
  | { kind: 'confined'; w: number; h: number }
);

export const QUALITIES = ['default', 'color', 'gray', 'bitonal'] as const;
export type Quality = (typeof QUALITIES)[number];
export const FORMATS = ['jpg', 'png', 'webp'] as const;
export type Format = (typeof FORMATS)[number];

export interface ImageRequest {
  region: Region;
  size: Size;
  rotation: { degrees: number; mirror: boolean };
  quality: Quality;
  format: Format;
}

export interface Limits {
  maxWidth: number;
  maxHeight: number;
  maxArea: number;
}

/** Server limits advertised in info.json. */
export const LIMITS: Limits = { maxWidth: 8000, maxHeight: 8000, maxArea: 40_000_000 };

const bad = (message: string) => new IiifRequestError(400, message);
const INT = /^\d+$/;
const NUM = /^\d+(\.\d+)?$/;

export function parseRegion(text: string): Region {
  if (text === 'full') return { kind: 'full' };
  if (text === 'square') return { kind: 'square' };
  const percent = text.startsWith('pct:');
  const parts = (percent ? text.slice(4) : text).split(',');
  if (parts.length !== 4 || !parts.every((p) => (percent ? NUM : INT).test(p))) {
    throw bad(`区域参数无效：${text}（应为 full、square、x,y,w,h 或 pct:x,y,w,h）`);
  }
  const [x, y, w, h] = parts.map(Number) as [number, number, number, number];
  if (w <= 0 || h <= 0) throw bad(`区域的宽和高必须大于 0：${text}`);
  return percent ? { kind: 'percent', x, y, w, h } : { kind: 'pixels', x, y, w, h };
}

export function parseSize(text: string): Size {
  const upscale = text.startsWith('^');
  const body = upscale ? text.slice(1) : text;
  const invalid = () => bad(`尺寸参数无效：${text}（应为 max、w,、,h、pct:n、w,h 或 !w,h，可加 ^ 前缀）`);
  if (body === 'max') return { upscale, kind: 'max' };
  if (body.startsWith('pct:')) {
    const n = body.slice(4);
    if (!NUM.test(n) || Number(n) <= 0) throw invalid();
    return { upscale, kind: 'percent', n: Number(n) };
  }
  const confined = body.startsWith('!');
  const parts = (confined ? body.slice(1) : body).split(',');
  if (parts.length !== 2) throw invalid();
  const [w = '', h = ''] = parts;
  if ((w !== '' && !INT.test(w)) || (h !== '' && !INT.test(h))) throw invalid();
  if (confined) {
    if (w === '' || h === '') throw invalid();
    return { upscale, kind: 'confined', w: Number(w), h: Number(h) };
  }
  if (w !== '' && h !== '') return { upscale, kind: 'exact', w: Number(w), h: Number(h) };
  if (w !== '') return { upscale, kind: 'width', w: Number(w) };
  if (h !== '') return { upscale, kind: 'height', h: Number(h) };
  throw invalid();
}

export function parseRotation(text: string): { degrees: number; mirror: boolean } {
  const mirror = text.startsWith('!');
  const body = mirror ? text.slice(1) : text;
  if (!NUM.test(body) || Number(body) > 360)
    throw bad(`旋转参数无效：${text}（应为 0 到 360 之间的角度，可加 ! 表示镜像）`);
  return { degrees: Number(body) % 360, mirror };
}

export function parseQualityFormat(text: string): { quality: Quality; format: Format } {
  const dot = text.lastIndexOf('.');
  if (dot <= 0) throw bad(`缺少图像格式：${text}（应为 质量.格式，如 default.jpg）`);
  const quality = text.slice(0, dot);
  const format = text.slice(dot + 1);
  if (!(QUALITIES as readonly string[]).includes(quality))
    throw bad(`不支持的图像质量：${quality}（可用 ${QUALITIES.join('、')}）`);
  if (!(FORMATS as readonly string[]).includes(format))
    throw bad(`不支持的图像格式：${format}（可用 ${FORMATS.join('、')}）`);
  return { quality: quality as Quality, format: format as Format };
}

export function parseImageRequest(
  region: string,
  size: string,
  rotation: string,
  qualityFormat: string,
): ImageRequest {
  return {
    region: parseRegion(region),
    size: parseSize(size),
    rotation: parseRotation(rotation),
    ...parseQualityFormat(qualityFormat),
  };
}

export interface ResolvedRequest {
  /** The region in full-image pixels, clipped to the image. */
  region: { x: number; y: number; w: number; h: number };
  /** Output size before rotation. */
  width: number;
  height: number;
}

/** Turns a parsed request into pixel numbers for an image of the given size, or throws 400. */
export function resolveRequest(
  request: ImageRequest,
  imageWidth: number,
  imageHeight: number,
  limits: Limits = LIMITS,
): ResolvedRequest {
  const region = resolveRegion(request.region, imageWidth, imageHeight);
  const { width, height } = resolveSize(request.size, region.w, region.h, limits);
  return { region, width, height };
}

function resolveRegion(region: Region, W: number, H: number): ResolvedRequest['region'] {
  let x: number, y: number, w: number, h: number;
  switch (region.kind) {
    case 'full':
      return { x: 0, y: 0, w: W, h: H };
    case 'square': {
      const side = Math.min(W, H);
      return { x: Math.floor((W - side) / 2), y: Math.floor((H - side) / 2), w: side, h: side };
    }
    case 'pixels':
      ({ x, y, w, h } = region);
      break;
    case 'percent':
      x = Math.round((region.x / 100) * W);
      y = Math.round((region.y / 100) * H);
      w = Math.round((region.w / 100) * W);
      h = Math.round((region.h / 100) * H);
      break;
  }
  if (x >= W || y >= H) throw bad('请求的区域完全在图像之外');
  w = Math.min(w, W - x);
  h = Math.min(h, H - y);
  if (w <= 0 || h <= 0) throw bad('请求的区域为空');
  return { x, y, w, h };
}

function resolveSize(size: Size, rw: number, rh: number, limits: Limits): { width: number; height: number } {
  const ratio = rw / rh;
  let width: number;
  let height: number;
  switch (size.kind) {
    case 'max': {
      const cap = Math.min(
        limits.maxWidth / rw,
        limits.maxHeight / rh,
        Math.sqrt(limits.maxArea / (rw * rh)),
      );
      const scale = size.upscale ? cap : Math.min(1, cap);
      width = Math.floor(rw * scale);
      height = Math.floor(rh * scale);
      break;
    }
    case 'width':
      width = size.w;
      height = Math.round(size.w / ratio);
      break;
    case 'height':
      height = size.h;
      width = Math.round(size.h * ratio);
      break;
    case 'percent':
      width = Math.round((rw * size.n) / 100);
      height = Math.round((rh * size.n) / 100);
      break;
    case 'exact':
      width = size.w;
      height = size.h;
      break;
    case 'confined': {
      let scale = Math.min(size.w / rw, size.h / rh);
      if (!size.upscale) scale = Math.min(scale, 1);
      width = Math.max(1, Math.floor(rw * scale));
      height = Math.max(1, Math.floor(rh * scale));
      break;
    }
  }
  if (width <= 0 || height <= 0) throw bad('请求的尺寸为 0');
  if (!size.upscale && (width > rw || height > rh)) throw bad('请求的尺寸大于区域本身；放大请在尺寸前加 ^');
  if (width > limits.maxWidth || height > limits.maxHeight || width * height > limits.maxArea) {
    throw bad(`请求的尺寸超过服务器上限（最大 ${limits.maxWidth}×${limits.maxHeight}）`);
  }
  return { width, height };
}

/** The canonical form of a request (IIIF §4.7), used as the cache key. */
export function canonicalPath(
  resolved: ResolvedRequest,
  request: ImageRequest,
  imageWidth: number,
  imageHeight: number,
): string {
  const { x, y, w, h } = resolved.region;
  const region = x === 0 && y === 0 && w === imageWidth && h === imageHeight ? 'full' : `${x},${y},${w},${h}`;
  const size = `${request.size.upscale ? '^' : ''}${resolved.width},${resolved.height}`;
  const rotation = `${request.rotation.mirror ? '!' : ''}${request.rotation.degrees}`;
  return `${region}/${size}/${rotation}/${request.quality}.${request.format}`;
}

/** Whether the output has more pixels than the region it shows in either direction (`^` sizes). */
export const upscales = (resolved: ResolvedRequest): boolean =>
  resolved.width > resolved.region.w || resolved.height > resolved.region.h;

/** Whether the rotation is not a multiple of 90° (the output then is the rotated image's bounding box). */
export const rotatesArbitrarily = (request: ImageRequest): boolean => request.rotation.degrees % 90 !== 0;

/** The pixels of the output image: after rotation, the bounding box of the rotated image. */
export function outputArea(resolved: ResolvedRequest, request: ImageRequest): number {
  if (request.rotation.degrees % 90 === 0) return resolved.width * resolved.height;
  const radians = (request.rotation.degrees * Math.PI) / 180;
  const cos = Math.abs(Math.cos(radians));
  const sin = Math.abs(Math.sin(radians));
  const { width, height } = resolved;
  return Math.ceil(width * cos + height * sin) * Math.ceil(width * sin + height * cos);
}

/**
 * Whether a request is one that viewers make again and again: unrotated and unmirrored, either the
 * whole image at one of the sizes info.json lists, or one tile of the grid it advertises, at the size
 * the tile's scale factor gives. Clients round level sizes up (OpenSeadragon: ceil), libvips down, so
 * either rounding counts. A page has a bounded number of these; anything else is one client's own.
 */
export function isGridRequest(
  resolved: ResolvedRequest,
  request: ImageRequest,
  imageWidth: number,
  imageHeight: number,
  tileSize: number,
  scaleFactors: readonly number[],
): boolean {
  if (request.rotation.degrees !== 0 || request.rotation.mirror) return false;
  const { region, width, height } = resolved;
  const scaled = (out: number, span: number, factor: number) =>
    out === Math.floor(span / factor) || out === Math.ceil(span / factor);
  const whole = region.x === 0 && region.y === 0 && region.w === imageWidth && region.h === imageHeight;
  return scaleFactors.some((factor) => {
    if (!scaled(width, region.w, factor) || !scaled(height, region.h, factor)) return false;
    if (whole) return true;
    const span = tileSize * factor;
    return (
      region.x % span === 0 &&
      region.y % span === 0 &&
      region.w === Math.min(span, imageWidth - region.x) &&
      region.h === Math.min(span, imageHeight - region.y)
    );
  });
}
