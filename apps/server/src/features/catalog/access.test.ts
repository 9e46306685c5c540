import { describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { decideAccess, isPublicBook, type AccessBook, type AccessSubject } from './access.ts';

const openBook: AccessBook = {
  isVisible: true,
  isOpen: true,
  auditStatus: '2',
  ownerId: null,
  volumeCount: 2,
};
const closedBook: AccessBook = { ...openBook, isOpen: false };
const reader: AccessSubject = { userId: 7, roles: ['reader'], readingRoom: false, hasPrivilege: false };

describe('access rule (DESIGN.md §7)', () => {
  it('asks a visitor to log in, whatever the book', () => {
    expect(decideAccess(openBook, { ...reader, userId: null, roles: [] })).toEqual({
      canRead: false,
      reason: 'login',
      message: MSG.loginRequiredNotice,
    });
  });
  it('lets a reader read an open book', () => {
    expect(decideAccess(openBook, reader).canRead).toBe(true);
  });
  it('sends a reader of a closed book to the reading room', () => {
    expect(decideAccess(closedBook, reader)).toEqual({
      canRead: false,
      reason: 'readingRoom',
      message: MSG.readingRoomOnly,
    });
  });
  it('lets a reviewer open an own book while it is submitted, and only then', () => {
    const submitted: AccessBook = { ...closedBook, isVisible: false, auditStatus: '1', ownerId: 99 };
    const reviewer = { ...reader, roles: ['reader', 'reviewer'] as AccessSubject['roles'] };
    expect(decideAccess(submitted, reviewer).canRead).toBe(true);
    expect(decideAccess(submitted, reader).reason).toBe('noData');
    expect(decideAccess({ ...submitted, auditStatus: '0' }, reviewer).reason).toBe('noData');
    expect(decideAccess({ ...submitted, auditStatus: '3' }, reviewer).reason).toBe('noData');
  });
  it('opens a closed book in the reading room, with a privilege, and to staff', () => {
    expect(decideAccess(closedBook, { ...reader, readingRoom: true }).canRead).toBe(true);
    expect(decideAccess(closedBook, { ...reader, hasPrivilege: true }).canRead).toBe(true);
    expect(decideAccess(closedBook, { ...reader, roles: ['reader', 'catalogAdmin'] }).canRead).toBe(true);
    expect(decideAccess(closedBook, { ...reader, roles: ['admin'] }).canRead).toBe(true);
  });
  it('shows no data for a hidden book or one without volumes, even in the reading room', () => {
    const hidden = { ...openBook, isVisible: false };
    expect(decideAccess(hidden, { ...reader, readingRoom: true })).toMatchObject({
      reason: 'noData',
      message: MSG.noData,
    });
    expect(decideAccess({ ...openBook, volumeCount: 0 }, reader).reason).toBe('noData');
    expect(decideAccess({ ...openBook, volumeCount: 0 }, { ...reader, roles: ['catalogAdmin'] }).reason).toBe(
      'noData',
    );
    expect(decideAccess(undefined, reader).reason).toBe('noData');
  });
  it('lets staff and the owner read a hidden or unpublished book', () => {
    expect(
      decideAccess({ ...closedBook, isVisible: false }, { ...reader, roles: ['catalogAdmin'] }).canRead,
    ).toBe(true);
    expect(decideAccess({ ...closedBook, auditStatus: '0', ownerId: 7 }, reader).canRead).toBe(true);
    expect(decideAccess({ ...closedBook, auditStatus: '0', ownerId: 8 }, reader).reason).toBe('noData');
  });
  it('makes only visible, published, open books public to IIIF clients', () => {
    expect(isPublicBook(openBook)).toBe(true);
    expect(isPublicBook(closedBook)).toBe(false);
    expect(isPublicBook({ ...openBook, isVisible: false })).toBe(false);
  });
});
