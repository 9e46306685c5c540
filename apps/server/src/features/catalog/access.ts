import { hasRole, MSG, type Access, type Role, OWN_STATUS } from '@guji/shared';

export interface AccessSubject {
  userId: number | null;
  roles: readonly Role[];
  readingRoom: boolean;
  /** Whether the user holds an approved, unexpired privilege for this book. */
  hasPrivilege: boolean;
}

export interface AccessBook {
  isVisible: boolean;
  isOpen: boolean;
  /** Library books are '2'; own books until approved are not public. */
  auditStatus: string;
  ownerId: number | null;
  volumeCount: number;
}

/** Staff with the catalogue permission see and read every book. */
export const isCatalogStaff = (roles: readonly Role[]): boolean => hasRole(roles, 'catalogAdmin');

const result = (reason: Access['reason']): Access => {
  switch (reason) {
    case 'ok':
      return { canRead: true, reason, message: '' };
    case 'login':
      return { canRead: false, reason, message: MSG.loginRequiredNotice };
    case 'noData':
      return { canRead: false, reason, message: MSG.noData };
    case 'readingRoom':
      return { canRead: false, reason, message: MSG.readingRoomOnly };
  }
};

/**
 * The access rule of DESIGN.md §7. A book can be read when it is visible and published (or the
 * reader owns it, is catalogue staff, or reviews it while it is submitted), has a volume, the user is logged in, and one of: it is open
 * for online reading, the request comes from the reading room, the user holds a privilege, the user
 * is staff. Otherwise the reason says which notice the reader sees.
 */
export function decideAccess(book: AccessBook | undefined, subject: AccessSubject): Access {
  if (subject.userId === null) return result('login');
  if (!book) return result('noData');
  const staff = isCatalogStaff(subject.roles);
  const owner = book.ownerId !== null && book.ownerId === subject.userId;
  // Reviewers open a submitted own book to judge it (spec §1: publication review).
  const reviewing =
    book.ownerId !== null && book.auditStatus === OWN_STATUS.reviewing && hasRole(subject.roles, 'reviewer');
  const published = book.isVisible && book.auditStatus === OWN_STATUS.published;
  if ((!published && !staff && !owner && !reviewing) || book.volumeCount === 0) return result('noData');
  if (book.isOpen || subject.readingRoom || subject.hasPrivilege || staff || owner || reviewing)
    return result('ok');
  return result('readingRoom');
}

/**
 * Whether IIIF clients without a session may have a book's images and manifests: visible, published
 * and open for online reading. These are the books other libraries' viewers can show.
 */
export const isPublicBook = (book: AccessBook): boolean =>
  book.isVisible && book.auditStatus === OWN_STATUS.published && book.isOpen;
