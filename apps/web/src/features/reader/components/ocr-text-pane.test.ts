import { describe, expect, it } from 'vitest';
import { confidenceClass, OCR_FONT_SCALE } from './ocr-text-pane.tsx';

describe('text pane constants of spec §9', () => {
  it('colours confidence at or below 0.5 red and up to 0.7 yellow', () => {
    expect(confidenceClass(0.3)).toBe('ocr-low');
    expect(confidenceClass(0.5)).toBe('ocr-low');
    expect(confidenceClass(0.51)).toBe('ocr-mid');
    expect(confidenceClass(0.7)).toBe('ocr-mid');
    expect(confidenceClass(0.71)).toBeUndefined();
    expect(confidenceClass(1)).toBeUndefined();
  });

  it('draws the text at 0.7 of its size', () => {
    expect(OCR_FONT_SCALE).toBe(0.7);
  });
});
