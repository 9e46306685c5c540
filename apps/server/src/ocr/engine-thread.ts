import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import type { OcrEngine, PageReading } from './engine.ts';

/** A request to the engine's thread, and its answers (engine-thread.worker.ts). */
export type EngineRequest = { id: number; kind: 'load' } | { id: number; kind: 'recognize'; file: string };
export type EngineReply =
  | { id: number; ok: true; name: string; description: string; result?: PageReading }
  | { id: number; ok: false; error: string };

/**
 * The OCR engine in its own thread (DESIGN.md §5, issue 13 item 6): recognition decodes a page, walks
 * every pixel in JavaScript and runs the model, seconds of CPU that on the server's main thread would
 * hold up every request. One long-lived `worker_threads` thread holds the engine (loaded there, on the
 * first job); pages are posted to it and results come back. The thread keeps the process alive only
 * while it has work, and is started again if it dies.
 */
export class ThreadedOcrEngine implements OcrEngine {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, (reply: EngineReply) => void>();
  private loaded = { name: '', description: '' };

  private constructor(private readonly workerUrl: URL) {}

  get name(): string {
    return this.loaded.name;
  }

  get description(): string {
    return this.loaded.description;
  }

  /** Starts the thread and loads the engine in it (`workerUrl`: another engine, for tests). */
  static async create(
    workerUrl = new URL('./engine-thread.worker.ts', import.meta.url),
  ): Promise<ThreadedOcrEngine> {
    const engine = new ThreadedOcrEngine(workerUrl);
    const { name, description } = await engine.call({ kind: 'load' });
    engine.loaded = { name, description };
    return engine;
  }

  async recognize(file: string): Promise<PageReading> {
    const reply = await this.call({ kind: 'recognize', file });
    if (!reply.result) throw new Error('识别线程没有返回结果');
    return reply.result;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    // The server runs TypeScript through tsx (`node --import tsx`); the thread loads it too, also
    // where the parent process was started some other way (vitest).
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    this.worker = new Worker(this.workerUrl, { execArgv: ['--import', tsx] });
    const worker = this.worker;
    worker.unref();
    worker.on('message', (reply: EngineReply) => {
      const resolve = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      resolve?.(reply);
    });
    const fail = (reason: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, resolve] of this.pending) resolve({ id, ok: false, error: reason });
      this.pending.clear();
    };
    worker.on('error', (error: Error) => fail(`识别线程出错：${error.message}`));
    worker.on('exit', (code) => fail(`识别线程已退出（${code}）`));
    return worker;
  }

  private async call(
    request: { kind: 'load' } | { kind: 'recognize'; file: string },
  ): Promise<Extract<EngineReply, { ok: true }>> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    const reply = await new Promise<EngineReply>((resolve) => {
      this.pending.set(id, resolve);
      // Waiting for an answer keeps the process alive (a `worker --once` run), idling does not.
      worker.ref();
      worker.postMessage({ id, ...request } satisfies EngineRequest);
    });
    if (!reply.ok) throw new Error(reply.error);
    return reply;
  }
}
