import { describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { readerRefusal } from './reader-refusal.ts';

const here = '/Book?catalogId=5&fascicleId=7';

describe('reader refusals (DESIGN.md §7)', () => {
  it('sends a visitor to log in after 1.5 s and back to this page afterwards', () => {
    expect(readerRefusal(401, 'LOGIN_REQUIRED', '', here)).toEqual({
      tone: 'warning',
      notice: MSG.loginRequiredNotice,
      to: `/Login?redirect=${encodeURIComponent(here)}`,
      delayMs: 1500,
    });
  });

  it('goes home after 1 s for a book without data', () => {
    expect(readerRefusal(404, 'NO_DATA', MSG.noData, here)).toMatchObject({
      notice: MSG.noData,
      to: '/',
      delayMs: 1000,
    });
  });

  it('says no permission and goes home after 1 s outside the reading room', () => {
    expect(readerRefusal(403, 'READING_ROOM_ONLY', MSG.readingRoomOnly, here)).toMatchObject({
      tone: 'error',
      notice: MSG.noPermission,
      to: '/',
      delayMs: 1000,
    });
  });

  it('stays on other failures with the server message or the default', () => {
    expect(readerRefusal(500, 'INTERNAL', '服务器异常', here)).toMatchObject({
      to: null,
      notice: '服务器异常',
    });
    expect(readerRefusal(0, 'NETWORK', '', here)).toMatchObject({ to: null, notice: MSG.serverException });
  });
});
