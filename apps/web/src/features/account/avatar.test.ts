import { describe, expect, it } from 'vitest';
import { LIMITS } from '@guji/shared';
import { AVATAR_ACCEPT, isAcceptableAvatar } from './avatar.ts';

describe('isAcceptableAvatar', () => {
  it('accepts jpg, jpeg, bmp and png up to 2 MB, in any letter case', () => {
    for (const name of ['a.jpg', 'b.JPEG', 'c.bmp', 'd.Png']) {
      expect(isAcceptableAvatar({ name, size: 1000 })).toBe(true);
    }
    expect(isAcceptableAvatar({ name: 'max.png', size: LIMITS.avatarMaxBytes })).toBe(true);
  });

  it('refuses other types, larger files and empty files', () => {
    expect(isAcceptableAvatar({ name: 'a.gif', size: 1000 })).toBe(false);
    expect(isAcceptableAvatar({ name: 'png', size: 1000 })).toBe(false);
    expect(isAcceptableAvatar({ name: 'a.png.exe', size: 1000 })).toBe(false);
    expect(isAcceptableAvatar({ name: 'big.png', size: LIMITS.avatarMaxBytes + 1 })).toBe(false);
    expect(isAcceptableAvatar({ name: 'empty.png', size: 0 })).toBe(false);
  });

  it('offers the same types in the file picker', () => {
    expect(AVATAR_ACCEPT).toBe('.jpg,.jpeg,.bmp,.png');
  });
});
