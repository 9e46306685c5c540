import { describe, expect, it } from 'vitest';
import {
  canonicalPath,
  isGridRequest,
  outputArea,
  parseImageRequest,
  parseRegion,
  parseRotation,
  parseSize,
  resolveRequest,
  type ImageRequest,
} from './image-request.ts';

const W = 2000;
const H = 1000;
const resolve = (region: string, size: string, rotation = '0', qf = 'default.jpg') =>
  resolveRequest(parseImageRequest(region, size, rotation, qf), W, H);

describe('IIIF Image API 3.0 regions', () => {
  it('parses full, square, pixels and percent', () => {
    expect(parseRegion('full')).toEqual({ kind: 'full' });
    expect(parseRegion('square')).toEqual({ kind: 'square' });
    expect(parseRegion('10,20,300,400')).toEqual({ kind: 'pixels', x: 10, y: 20, w: 300, h: 400 });
    expect(parseRegion('pct:10.5,20,30,40')).toEqual({ kind: 'percent', x: 10.5, y: 20, w: 30, h: 40 });
  });
  it('resolves to pixels, centring a square and clipping to the image', () => {
    expect(resolve('square', 'max').region).toEqual({ x: 500, y: 0, w: 1000, h: 1000 });
    expect(resolve('1900,900,500,500', 'max').region).toEqual({ x: 1900, y: 900, w: 100, h: 100 });
    expect(resolve('pct:50,50,50,50', 'max').region).toEqual({ x: 1000, y: 500, w: 1000, h: 500 });
  });
  it.each([
    '',
    'abc',
    '1,2,3',
    '1,2,3,4,5',
    '-1,0,10,10',
    '1.5,0,10,10',
    'pct:a,0,1,1',
    '0,0,0,10',
    'pct:0,0,0,5',
  ])('refuses %j', (text) => {
    expect(() => parseRegion(text)).toThrow(/区域/);
  });
  it('refuses a region entirely outside the image', () => {
    expect(() => resolve('2000,0,10,10', 'max')).toThrow(/图像之外/);
    expect(() => resolve('0,1000,10,10', 'max')).toThrow(/图像之外/);
  });
});

describe('IIIF Image API 3.0 sizes', () => {
  it('parses every form, with and without ^', () => {
    expect(parseSize('max')).toEqual({ upscale: false, kind: 'max' });
    expect(parseSize('^max')).toEqual({ upscale: true, kind: 'max' });
    expect(parseSize('150,')).toEqual({ upscale: false, kind: 'width', w: 150 });
    expect(parseSize('^150,')).toEqual({ upscale: true, kind: 'width', w: 150 });
    expect(parseSize(',150')).toEqual({ upscale: false, kind: 'height', h: 150 });
    expect(parseSize('^,150')).toEqual({ upscale: true, kind: 'height', h: 150 });
    expect(parseSize('pct:50')).toEqual({ upscale: false, kind: 'percent', n: 50 });
    expect(parseSize('^pct:150')).toEqual({ upscale: true, kind: 'percent', n: 150 });
    expect(parseSize('225,100')).toEqual({ upscale: false, kind: 'exact', w: 225, h: 100 });
    expect(parseSize('^360,360')).toEqual({ upscale: true, kind: 'exact', w: 360, h: 360 });
    expect(parseSize('!225,100')).toEqual({ upscale: false, kind: 'confined', w: 225, h: 100 });
    expect(parseSize('^!225,100')).toEqual({ upscale: true, kind: 'confined', w: 225, h: 100 });
  });
  it('computes output sizes keeping the aspect ratio where the form says so', () => {
    expect(resolve('full', 'max')).toMatchObject({ width: 2000, height: 1000 });
    expect(resolve('full', '500,')).toMatchObject({ width: 500, height: 250 });
    expect(resolve('full', ',250')).toMatchObject({ width: 500, height: 250 });
    expect(resolve('full', 'pct:10')).toMatchObject({ width: 200, height: 100 });
    expect(resolve('full', '300,300')).toMatchObject({ width: 300, height: 300 });
    expect(resolve('full', '!300,300')).toMatchObject({ width: 300, height: 150 });
    expect(resolve('0,0,100,100', '!300,300')).toMatchObject({ width: 100, height: 100 });
    expect(resolve('0,0,100,100', '^!300,300')).toMatchObject({ width: 300, height: 300 });
    expect(resolve('0,0,100,50', '^max')).toMatchObject({ width: 8000, height: 4000 });
    expect(resolve('0,0,100,50', '^200,')).toMatchObject({ width: 200, height: 100 });
    expect(resolve('0,0,100,50', '^pct:200')).toMatchObject({ width: 200, height: 100 });
  });
  it('refuses to enlarge without ^, sizes of zero, and sizes over the limits', () => {
    expect(() => resolve('0,0,100,100', '200,')).toThrow(/\^/);
    expect(() => resolve('0,0,100,100', 'pct:150')).toThrow(/\^/);
    expect(() => resolve('0,0,100,100', '101,100')).toThrow(/\^/);
    expect(() => resolve('full', '0,')).toThrow(/0/);
    expect(() => resolve('full', '^9000,')).toThrow(/上限/);
  });
  it.each(['', 'full', '10', ',', '!10,', '!,10', 'pct:', 'pct:0', 'a,b', '^', '10,10,10'])(
    'refuses %j',
    (text) => {
      expect(() => parseSize(text)).toThrow(/尺寸/);
    },
  );
});

describe('IIIF Image API 3.0 rotation, quality and format', () => {
  it('parses rotations and mirroring', () => {
    expect(parseRotation('0')).toEqual({ degrees: 0, mirror: false });
    expect(parseRotation('90')).toEqual({ degrees: 90, mirror: false });
    expect(parseRotation('!180')).toEqual({ degrees: 180, mirror: true });
    expect(parseRotation('22.5')).toEqual({ degrees: 22.5, mirror: false });
    expect(parseRotation('360')).toEqual({ degrees: 0, mirror: false });
  });
  it.each(['-90', '361', 'abc', '!', '90deg'])('refuses rotation %j', (text) => {
    expect(() => parseRotation(text)).toThrow(/旋转/);
  });
  it('accepts the four qualities and three formats, refusing others by name', () => {
    for (const q of ['default', 'color', 'gray', 'bitonal'])
      for (const f of ['jpg', 'png', 'webp'])
        expect(() => parseImageRequest('full', 'max', '0', `${q}.${f}`)).not.toThrow();
    expect(() => parseImageRequest('full', 'max', '0', 'default.gif')).toThrow(/格式：gif/);
    expect(() => parseImageRequest('full', 'max', '0', 'sepia.jpg')).toThrow(/质量：sepia/);
    expect(() => parseImageRequest('full', 'max', '0', 'default')).toThrow(/格式/);
  });
  it('writes the canonical form used as the cache key', () => {
    const request: ImageRequest = parseImageRequest('pct:0,0,50,50', '!500,500', '!90', 'gray.png');
    expect(canonicalPath(resolveRequest(request, W, H), request, W, H)).toBe(
      '0,0,1000,500/500,250/!90/gray.png',
    );
    const full = parseImageRequest('full', 'max', '0', 'default.jpg');
    expect(canonicalPath(resolveRequest(full, W, H), full, W, H)).toBe('full/2000,1000/0/default.jpg');
  });
});

describe('which requests are a viewer’s (kept in the cache)', () => {
  // 2000×1000 with 512 px tiles: scale factors 1, 2, 4, 8, 16 as info.json lists them.
  const FACTORS = [1, 2, 4, 8, 16];
  const grid = (region: string, size: string, rotation = '0', qf = 'default.jpg') => {
    const request = parseImageRequest(region, size, rotation, qf);
    return isGridRequest(resolveRequest(request, W, H), request, W, H, 512, FACTORS);
  };

  it('takes tiles of the advertised grid at their scale factor, edges rounded either way', () => {
    expect(grid('0,0,512,512', '512,512')).toBe(true);
    expect(grid('1024,0,1024,1000', '488,500')).toBe(true);
    expect(grid('0,0,1024,1000', '512,500')).toBe(true);
    expect(grid('1536,512,464,488', '464,488')).toBe(true);
    expect(grid('0,0,2000,1000', '125,63', '0', 'gray.png')).toBe(true);
    expect(grid('0,0,2000,1000', '125,62')).toBe(true);
    expect(grid('full', 'max')).toBe(true);
  });

  it('leaves out everything else: unaligned, other sizes, rotated, mirrored, upscaled', () => {
    expect(grid('10,0,512,512', '512,512')).toBe(false);
    expect(grid('0,0,512,512', '300,300')).toBe(false);
    expect(grid('0,0,512,512', '512,512', '90')).toBe(false);
    expect(grid('0,0,512,512', '512,512', '!0')).toBe(false);
    expect(grid('0,0,512,512', '^1024,1024')).toBe(false);
    expect(grid('full', '1000,')).toBe(true);
    expect(grid('full', '999,')).toBe(false);
  });

  it('measures the output of a rotation by its bounding box', () => {
    const request = parseImageRequest('0,0,100,100', '100,100', '45', 'default.png');
    expect(outputArea(resolveRequest(request, W, H), request)).toBe(142 * 142);
    const straight = parseImageRequest('0,0,100,50', '100,50', '90', 'default.png');
    expect(outputArea(resolveRequest(straight, W, H), straight)).toBe(5000);
  });
});
