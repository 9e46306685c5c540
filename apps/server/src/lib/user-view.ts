import { channelsForRoles, type Role, type SessionUser } from '@guji/shared';
import type { UserRow } from '../db/schema.ts';

/** A user's row with its roles (what the user repository answers and the session carries). */
export interface UserWithRoles extends UserRow {
  roles: Role[];
}

/** Shows the first 3 and last 4 characters of an ID card number. */
export const maskIdCard = (idCard: string | null): string | null =>
  idCard ? `${idCard.slice(0, 3)}${'*'.repeat(Math.max(0, idCard.length - 7))}${idCard.slice(-4)}` : null;

/** The client's view of a user: no password hash, no lockout state, a masked ID card. */
export function toSessionUser(user: UserWithRoles): SessionUser {
  return {
    userId: user.id,
    loginName: user.login_name,
    nickName: user.nick_name,
    realName: user.real_name,
    phone: user.phone,
    email: user.email,
    idCard: maskIdCard(user.id_card),
    post: user.post,
    address: user.address,
    avatarUrl: user.avatar_file ? `/api/avatars/${user.avatar_file}` : null,
    roles: user.roles,
    channels: channelsForRoles(user.roles),
    flag: user.reader_flag,
    flagExpiresAt: user.flag_expires_at,
  };
}
