/**
 * Roles and the personal-area channels they open (spec §2 personal area, §6; DESIGN.md §8).
 * The server derives a user's channels from their roles; the side menu shows exactly those.
 */
export const ROLES = ['reader', 'printAdmin', 'catalogAdmin', 'reviewer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  reader: '读者',
  printAdmin: '打印管理员',
  catalogAdmin: '编目管理员',
  reviewer: '审核员',
  admin: '系统管理员',
};

/** Channels of /PersonalPage/{channel}, in menu order. */
export const CHANNELS = [
  'Infor',
  'ChangePassword',
  'Download',
  'Collection',
  'Comment',
  'Notation',
  'Track',
  'Vip',
  'Print',
  'AdminPrint',
  'Appointment',
  /** Staff with the reviewer permission: the reservation review queue (spec §4; not a spec channel). */
  'AppointmentAudit',
  /** Reviewers: users' books submitted for publication (spec §4 own-book states; not a spec channel). */
  'OwnBookAudit',
] as const;
export type Channel = (typeof CHANNELS)[number];

export const CHANNEL_LABELS: Record<Channel, string> = {
  Infor: '我的信息',
  ChangePassword: '修改密码',
  Download: '我的下载',
  Collection: '我的收藏',
  Comment: '我的评论',
  Notation: '我的批注',
  Track: '我的足迹',
  Vip: '古籍特权',
  Print: '我的打印',
  AdminPrint: '管理员打印',
  Appointment: '预约申请',
  AppointmentAudit: '预约审核',
  OwnBookAudit: '出版审核',
};

const READER_CHANNELS: Channel[] = [
  'Infor',
  'ChangePassword',
  'Download',
  'Collection',
  'Comment',
  'Notation',
  'Track',
  'Vip',
  'Print',
  'Appointment',
];

const ROLE_CHANNELS: Record<Role, Channel[]> = {
  reader: READER_CHANNELS,
  printAdmin: [...READER_CHANNELS, 'AdminPrint'],
  catalogAdmin: READER_CHANNELS,
  reviewer: [...READER_CHANNELS, 'AppointmentAudit', 'OwnBookAudit'],
  admin: [...READER_CHANNELS, 'AdminPrint', 'AppointmentAudit', 'OwnBookAudit'],
};

/** Channels a set of roles opens, in menu order. */
export function channelsForRoles(roles: readonly Role[]): Channel[] {
  const allowed = new Set(roles.flatMap((role) => ROLE_CHANNELS[role]));
  return CHANNELS.filter((channel) => allowed.has(channel));
}

/** Whether any of the roles grants the permission named by another role (admin holds all). */
export function hasRole(roles: readonly Role[], role: Role): boolean {
  return roles.includes('admin') || roles.includes(role);
}
