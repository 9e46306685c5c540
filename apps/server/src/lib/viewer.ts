import type { Role } from '@guji/shared';

/** Who is asking: the signed-in user (if any) and whether the request comes from the reading room. */
export interface Viewer {
  userId: number | null;
  roles: readonly Role[];
  readingRoom: boolean;
}
