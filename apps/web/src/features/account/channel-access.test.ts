import { describe, expect, it } from 'vitest';
import type { Channel } from '@guji/shared';
import { isChannel, menuChannels, resolveChannel } from './channel-access.ts';

const implemented: Channel[] = ['ChangePassword', 'Infor'];

describe('personal-area channels', () => {
  it('lists channels both permitted and implemented, in menu order', () => {
    expect(menuChannels(['Collection', 'ChangePassword', 'Infor', 'AdminPrint'], implemented)).toEqual([
      'Infor',
      'ChangePassword',
    ]);
    expect(menuChannels(['ChangePassword'], implemented)).toEqual(['ChangePassword']);
  });

  it('opens only a permitted, implemented channel; anything else is a 404', () => {
    expect(resolveChannel('Infor', ['Infor', 'ChangePassword'], implemented)).toBe('Infor');
    expect(resolveChannel('ChangePassword', ['Infor'], implemented)).toBeNull();
    expect(resolveChannel('Collection', ['Collection'], implemented)).toBeNull();
    expect(resolveChannel('infor', ['Infor'], implemented)).toBeNull();
    expect(resolveChannel('Nope', ['Infor'], implemented)).toBeNull();
    expect(resolveChannel(undefined, ['Infor'], implemented)).toBeNull();
  });

  it('recognises channel names', () => {
    expect(isChannel('AdminPrint')).toBe(true);
    expect(isChannel('toString')).toBe(false);
  });
});
