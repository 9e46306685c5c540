import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { FastifyListenOptions } from 'fastify';
import { ROLES, isValidPassword, MSG, type Role } from '@guji/shared';
import type { Config } from '../config.ts';
import { createContext, type AppContext } from '../context.ts';
import { buildApp } from '../app.ts';
import { assertPortFree } from '../http/acceptors.ts';
import { migrateToLatest } from '../db/migrator.ts';
import { openDatabase } from '../db/database.ts';
import { seedDemoAccounts } from './demo-accounts.ts';
import { importDemoLibrary } from '../demo/demo.ts';
import fs from 'node:fs/promises';
import path from 'node:path';
import { FolderSource, type ImageSource } from '../features/import/image-source.ts';
import { importPackage, readPackageMetadata } from '../features/import/import-package.ts';
import { parseCsvMetadata, parseJsonMetadata, type BookInput } from '../features/import/package-metadata.ts';
import { ZIP_LIMITS, ZipSource } from '../features/import/zip-source.ts';
import { withTempDir } from '../storage/temp.ts';
import { ocrCommand } from './ocr-command.ts';
import { pyramidsCommand } from './pyramids-command.ts';
import { BackupError, backupLibrary, restoreLibrary } from '../backup/backup.ts';
import { PROVIDER_BANNER } from '../features/print/payment-providers.ts';

const USAGE = `用法: guji <命令> [选项]
  serve                 启动网站与 API（默认同时在进程内运行后台任务；JOBS_IN_PROCESS=false 关闭）
  worker [--once]       只运行后台任务，不提供 HTTP
  migrate               升级数据库结构
  create-admin --login NAME --password PASS [--phone PHONE] [--role admin]
                        创建管理员账号（已存在则重设密码与角色）
  demo-accounts         创建演示账号（见 README）
  demo                  排印并导入演示书库（可重复执行），并生成全部金字塔图像
  reindex               由各页的 OCR 文字重建全文检索索引
  pyramids [--all]      把旧版的图像金字塔排入重新生成（缺少某级缩放、精确边缘图块或 64 像素重启段）；
                        --all 全部重新生成
  ocr FILE… [--format text|json|alto|hocr] [--out DIR]
                        识别图像文件（PNG、JPEG、TIFF 含多页与黑白 CCITT）并输出正文（每列一行）或 JSON/ALTO/hOCR
  import <metadata.json | metadata.csv | package.zip>
                        导入古籍：元数据文件与各卷图像目录，或含 metadata.json/csv 的 zip；可重复执行
  backup DIR            备份数据库与全部文件到新目录 DIR（含校验和清单；网站可照常运行）
  restore DIR [--force] 由备份恢复（先停止网站；已有数据时须加 --force），再升级数据库结构
`;

/** Runs one command; returns the exit code for short commands, undefined for long-running ones. */
export async function runCli(argv: string[], config: Config): Promise<number | undefined> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve(config);
    case 'worker':
      return worker(config, rest.includes('--once'));
    case 'migrate': {
      const db = openDatabase(config.database);
      const applied = await migrateToLatest(db.db, db.dialect);
      await db.destroy();
      console.log(applied.length ? `已应用迁移：${applied.join(', ')}` : '数据库已是最新');
      return 0;
    }
    case 'create-admin':
      return createAdmin(config, rest);
    case 'import':
      return importCommand(config, rest);
    case 'ocr':
      return ocrCommand(rest, config.dataDir);
    case 'pyramids':
      return pyramidsCommand(rest, config);
    case 'demo': {
      const context = await createContext(config);
      try {
        const started = performance.now();
        const result = await importDemoLibrary(context, (line) => console.log(line));
        const worker = context.createWorker(pino({ level: 'warn' }));
        let jobs = 0;
        while (await worker.runOnce()) jobs++;
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(
          `演示书库：${result.books} 部书，排印 ${result.leaves} 葉、书影 ${result.scannedLeaves} 葉，` +
            `${jobs} 个后台任务（图像金字塔、书影 OCR），用时 ${seconds} 秒`,
        );
        if (result.omittedCharacters.length)
          console.log(`字体缺字（排印时略去）：${result.omittedCharacters.join('')}`);
        return 0;
      } finally {
        await context.close();
      }
    }
    case 'reindex': {
      const context = await createContext(config);
      try {
        const started = performance.now();
        const result = await context.services.fullText.reindexAll((done, total) => {
          if (done % 100 === 0 || done === total) console.log(`${done}/${total} 部书`);
        });
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(`全文索引：${result.books} 部书，${result.pages} 页有文字，用时 ${seconds} 秒`);
        return 0;
      } finally {
        await context.close();
      }
    }
    case 'backup':
    case 'restore':
      return backupCommand(config, command, rest);
    case 'demo-accounts': {
      const context = await createContext(config);
      try {
        const accounts = await seedDemoAccounts(context);
        for (const a of accounts) console.log(`${a.loginName} / ${a.password}  (${a.roles.join(', ')})`);
      } finally {
        await context.close();
      }
      return 0;
    }
    case undefined:
    default:
      console.log(USAGE);
      return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
}

/**
 * The first start on an empty user table. Outside production the demo accounts are created (their
 * passwords are public in README); in production never (issue 13): the log says how to create the
 * first administrator, and `demo-accounts` stays available to run by hand.
 */
export async function prepareAccounts(
  context: AppContext,
  config: Config,
  log: (line: string) => void = console.log,
): Promise<void> {
  if (!(await context.repos.users.isEmpty())) return;
  if (config.production) {
    log(
      '空数据库：生产环境不创建演示账号。请先创建管理员：npm run cli -- create-admin --login 用户名 --password 密码',
    );
    return;
  }
  const accounts = await seedDemoAccounts(context);
  log(`空数据库：已创建演示账号 ${accounts.map((a) => a.loginName).join(', ')}（密码见 README）`);
}

async function serve(config: Config): Promise<undefined> {
  const context = await createContext(config);
  await prepareAccounts(context, config);
  if (config.demoLibrary && !(await context.repos.catalog.hasBooks())) {
    // Typesetting holds fonts and render buffers the server should not keep: do it in a child process.
    console.log('空书库：正在排印演示书库…');
    const code = await runChild(['demo']);
    if (code !== 0) console.error('演示书库导入失败；网站照常启动，可稍后运行 `npm run cli -- demo`');
  }
  // A library from before the full-text index (or one whose index was dropped) is indexed once.
  if ((await context.textIndex.count()) === 0 && (await context.repos.catalog.hasBooks())) {
    const result = await context.services.fullText.reindexAll();
    if (result.pages > 0) console.log(`全文索引已建立：${result.pages} 页`);
  }
  const app = await buildApp(context, { runWorker: config.jobsInProcess });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app
      .close()
      .then(() => context.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // reusePort: the port is shared with the extra listening sockets of http/acceptors.ts (and only with
  // them: a port another process holds is refused first).
  await assertPortFree(config.port, config.host);
  const listen: FastifyListenOptions & { reusePort: boolean } = {
    port: config.port,
    host: config.host,
    reusePort: true,
  };
  await app.listen(listen);
  console.log(PROVIDER_BANNER[config.paymentProvider]);
  return undefined;
}

/** Runs another command of this program in a child process with the same configuration. */
function runChild(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {
      stdio: 'inherit',
    });
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
}

async function worker(config: Config, once: boolean): Promise<number | undefined> {
  const context = await createContext(config);
  const log = pino({ level: config.logLevel });
  const jobWorker = context.createWorker(log);
  if (once) {
    let count = 0;
    while (await jobWorker.runOnce()) count++;
    await context.close();
    console.log(`已处理 ${count} 个任务`);
    return 0;
  }
  const stop = () => {
    log.info('worker stopping');
    void jobWorker
      .stop()
      .then(() => context.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  jobWorker.start();
  log.info({ worker: jobWorker.id }, 'worker started');
  return undefined;
}

async function importCommand(config: Config, args: string[]): Promise<number> {
  const [file] = args;
  if (!file) {
    console.error('需要元数据文件或 zip 包的路径');
    return 2;
  }
  const context = await createContext(config);
  try {
    let results: Awaited<ReturnType<typeof importPackage>>;
    if (file.toLowerCase().endsWith('.zip')) {
      // Unpacked entry by entry under DATA_DIR/tmp, checked like an uploaded package.
      results = await withTempDir(config.dataDir, async (tempDir) => {
        const zip = await ZipSource.open(path.resolve(file), path.basename(file), ZIP_LIMITS, { tempDir });
        return importPackage(context.services.ingest, await readPackageMetadata(zip), zip);
      });
    } else {
      const source: ImageSource = new FolderSource(path.dirname(path.resolve(file)));
      const text = await fs.readFile(file, 'utf8');
      const books: BookInput[] = file.toLowerCase().endsWith('.csv')
        ? parseCsvMetadata(text, path.basename(file))
        : parseJsonMetadata(text, path.basename(file));
      results = await importPackage(context.services.ingest, books, source);
    }
    for (const r of results)
      console.log(
        `已导入《${r.title}》（id ${r.bookId}），${r.pageIds.length} 页；金字塔图像在后台任务中生成`,
      );
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await context.close();
  }
}

async function createAdmin(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      login: { type: 'string' },
      password: { type: 'string' },
      phone: { type: 'string' },
      role: { type: 'string', multiple: true },
    },
  });
  if (!values.login || !values.password) {
    console.error('需要 --login 与 --password');
    return 2;
  }
  if (!isValidPassword(values.password)) {
    console.error(MSG.passwordPattern);
    return 2;
  }
  const roles = (values.role ?? ['admin']) as Role[];
  const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role));
  if (unknown.length) {
    console.error(`未知角色：${unknown.join(', ')}；可用：${ROLES.join(', ')}`);
    return 2;
  }
  const context = await createContext(config);
  try {
    const id = await context.services.auth.upsertAccount({
      loginName: values.login,
      password: values.password,
      roles: roles.includes('reader') ? roles : ['reader', ...roles],
      ...(values.phone ? { phone: values.phone } : {}),
    });
    console.log(`账号 ${values.login}（id ${id}）角色：${roles.join(', ')}`);
    return 0;
  } finally {
    await context.close();
  }
}

async function backupCommand(config: Config, command: 'backup' | 'restore', args: string[]): Promise<number> {
  const dir = args.find((arg) => !arg.startsWith('--'));
  if (!dir) {
    console.log(USAGE);
    return 2;
  }
  try {
    const started = performance.now();
    if (command === 'backup') {
      const manifest = await backupLibrary(config, dir);
      const files = [...manifest.files, ...(manifest.objects ?? [])];
      const bytes = files.reduce((sum, entry) => sum + entry.bytes, 0);
      console.log(
        `备份完成：${dir}（数据库结构 ${manifest.schema}，${files.length} 个文件，` +
          `${(bytes / 1024 / 1024).toFixed(1)} MB，用时 ${((performance.now() - started) / 1000).toFixed(1)} 秒）`,
      );
      return 0;
    }
    const manifest = await restoreLibrary(config, dir, { force: args.includes('--force') });
    const db = openDatabase(config.database);
    try {
      const applied = await migrateToLatest(db.db, db.dialect);
      console.log(
        `恢复完成：${manifest.createdAt} 的备份，${manifest.files.length + (manifest.objects?.length ?? 0)} 个文件` +
          (applied.length ? `；已升级数据库结构：${applied.join(', ')}` : ''),
      );
    } finally {
      await db.destroy();
    }
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}
