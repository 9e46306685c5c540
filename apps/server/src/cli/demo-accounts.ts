import type { Role } from '@guji/shared';
import type { AppContext } from '../context.ts';

export interface DemoAccount {
  loginName: string;
  password: string;
  roles: Role[];
  nickName: string;
  phone: string;
}

/**
 * The documented demo accounts (README "Demo accounts"). Passwords follow the password rule and are
 * not weak (none contains its login name), so a demo login goes straight in.
 */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    loginName: 'reader',
    password: 'Shuyuan#2026',
    roles: ['reader'],
    nickName: '演示读者',
    phone: '13800000001',
  },
  {
    loginName: 'printadmin',
    password: 'Yinshua#2026',
    roles: ['reader', 'printAdmin'],
    nickName: '打印管理员',
    phone: '13800000002',
  },
  {
    loginName: 'catalogadmin',
    password: 'Bianmu#2026',
    roles: ['reader', 'catalogAdmin'],
    nickName: '编目管理员',
    phone: '13800000003',
  },
  {
    loginName: 'reviewer',
    password: 'Shenhe#2026',
    roles: ['reader', 'reviewer'],
    nickName: '审核员',
    phone: '13800000005',
  },
  {
    loginName: 'admin',
    password: 'Guanli#2026',
    roles: ['reader', 'admin'],
    nickName: '系统管理员',
    phone: '13800000004',
  },
];

/** Creates the demo accounts, or resets their passwords and roles when they exist. */
export async function seedDemoAccounts(context: AppContext): Promise<DemoAccount[]> {
  for (const account of DEMO_ACCOUNTS) {
    await context.services.auth.upsertAccount(account);
  }
  return DEMO_ACCOUNTS;
}
