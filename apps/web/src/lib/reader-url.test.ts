import { describe, expect, it } from 'vitest';
import { parseReaderParams, positiveId, readerPath } from './reader-url.ts';

describe('reader address', () => {
  it('builds /Book with the parameters that are set', () => {
    expect(readerPath({ catalogId: 5 })).toBe('/Book?catalogId=5');
    expect(readerPath({ catalogId: 5, fascicleId: 7, directoryId: null, imageId: 90 })).toBe(
      '/Book?catalogId=5&fascicleId=7&imageId=90',
    );
    expect(readerPath({ catalogId: 5, fascicleId: 7, directoryId: 3, imageId: 90 })).toBe(
      '/Book?catalogId=5&fascicleId=7&directoryId=3&imageId=90',
    );
  });

  it('reads its own addresses back', () => {
    const params = new URL(
      `http://x${readerPath({ catalogId: 5, fascicleId: 7, directoryId: 3, imageId: 90, highlight: '學而' })}`,
    ).searchParams;
    expect(parseReaderParams(params)).toEqual({
      catalogId: 5,
      fascicleId: 7,
      directoryId: 3,
      imageId: 90,
      highlight: '學而',
    });
  });

  it('takes only positive whole numbers as ids', () => {
    expect(positiveId('12')).toBe(12);
    expect(positiveId(' 12 ')).toBe(12);
    expect(positiveId('0')).toBeNull();
    expect(positiveId('-1')).toBeNull();
    expect(positiveId('1.5')).toBeNull();
    expect(positiveId('abc')).toBeNull();
    expect(positiveId('')).toBeNull();
    expect(positiveId(null)).toBeNull();
    expect(parseReaderParams(new URLSearchParams('catalogId=x&imageId=4'))).toEqual({
      catalogId: null,
      fascicleId: null,
      directoryId: null,
      imageId: 4,
      highlight: null,
    });
  });
});
