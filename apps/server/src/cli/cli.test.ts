import { afterEach, describe, expect, it, vi } from 'vitest';
import { MSG, isWeakPassword } from '@guji/shared';
import { testConfig } from '../../test/helpers.ts';
import { createContext } from '../context.ts';
import { prepareAccounts, runCli } from './cli.ts';
import { DEMO_ACCOUNTS } from './demo-accounts.ts';

describe('command line', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('create-admin creates an administrator, and resets the password when run again', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { config, cleanup } = await testConfig('sqlite');
    expect(await runCli(['create-admin', '--login', 'curator', '--password', 'Curator#2026'], config)).toBe(
      0,
    );
    expect(
      await runCli(
        ['create-admin', '--login', 'curator', '--password', 'Another#2026', '--role', 'printAdmin'],
        config,
      ),
    ).toBe(0);
    const context = await createContext(config);
    const user = await context.repos.users.findByLoginName('curator');
    expect(user?.roles.sort()).toEqual(['printAdmin', 'reader']);
    await context.close();
    await cleanup();
  });

  it('create-admin refuses a password that breaks the rule and an unknown role', async () => {
    const errors: unknown[] = [];
    vi.spyOn(console, 'error').mockImplementation((message: unknown) => errors.push(message));
    const { config, cleanup } = await testConfig('sqlite');
    expect(await runCli(['create-admin', '--login', 'x', '--password', 'short'], config)).toBe(2);
    expect(
      await runCli(['create-admin', '--login', 'x', '--password', 'Valid#2026', '--role', 'king'], config),
    ).toBe(2);
    expect(errors[0]).toBe(MSG.passwordPattern);
    expect(String(errors[1])).toContain('未知角色');
    await cleanup();
  });

  it('demo-accounts creates the documented accounts with valid passwords', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { config, cleanup } = await testConfig('sqlite');
    expect(await runCli(['demo-accounts'], config)).toBe(0);
    const context = await createContext(config);
    for (const account of DEMO_ACCOUNTS) {
      expect(isWeakPassword(account.password, account.loginName, account.phone), account.loginName).toBe(
        false,
      );
      expect((await context.repos.users.findByLoginName(account.loginName))?.roles.sort()).toEqual(
        [...account.roles].sort(),
      );
    }
    await context.close();
    await cleanup();
  });

  it('a production start on an empty database creates no demo accounts and says how to add an administrator', async () => {
    const { config, cleanup } = await testConfig('sqlite', { NODE_ENV: 'production', DEMO_LIBRARY: 'false' });
    expect(config.production).toBe(true);
    const context = await createContext(config);
    const lines: string[] = [];
    await prepareAccounts(context, config, (line) => lines.push(line));
    expect(await context.repos.users.isEmpty()).toBe(true);
    for (const account of DEMO_ACCOUNTS)
      expect(await context.repos.users.findByLoginName(account.loginName)).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('npm run cli -- create-admin');
    await context.close();
    await cleanup();
  });

  it('outside production an empty database gets the demo accounts, once', async () => {
    const { config, cleanup } = await testConfig('sqlite');
    expect(config.production).toBe(false);
    const context = await createContext(config);
    const lines: string[] = [];
    await prepareAccounts(context, config, (line) => lines.push(line));
    for (const account of DEMO_ACCOUNTS)
      expect(await context.repos.users.findByLoginName(account.loginName)).toBeDefined();
    // A database with users is left alone (a changed demo password is not reset).
    await context.services.auth.upsertAccount({ ...DEMO_ACCOUNTS[0]!, password: 'Changed#2026' });
    await prepareAccounts(context, config, (line) => lines.push(line));
    expect(lines).toHaveLength(1);
    await context.close();
    await cleanup();
  });

  it('worker --once runs the queued jobs and exits', async () => {
    const logs: unknown[] = [];
    vi.spyOn(console, 'log').mockImplementation((message: unknown) => logs.push(message));
    const { config, cleanup } = await testConfig('sqlite', { LOG_LEVEL: 'silent' });
    const context = await createContext(config);
    await context.queue.enqueue('maintenance.purge', {}, { tx: context.database.db });
    await context.close();
    expect(await runCli(['worker', '--once'], config)).toBe(0);
    expect(logs).toContain('已处理 1 个任务');
    await cleanup();
  });
});
