import { parentPort } from 'node:worker_threads';
import type { EngineReply, EngineRequest } from './engine-thread.ts';
import { VerticalPageEngine } from './engine.ts';

/**
 * The OCR engine's thread (ThreadedOcrEngine): loads VerticalPageEngine once, on the first request,
 * and recognises the pages posted to it, one answer per request id.
 */
const port = parentPort;
if (!port) throw new Error('engine-thread.worker.ts runs as a worker thread');

let engine: Promise<VerticalPageEngine> | undefined;

port.on('message', (request: EngineRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});

async function answer(request: EngineRequest): Promise<EngineReply> {
  try {
    // A model that failed to load is tried again with the next request.
    engine ??= VerticalPageEngine.create().catch((error: unknown) => {
      engine = undefined;
      throw error;
    });
    const loaded = await engine;
    const result = request.kind === 'recognize' ? await loaded.recognize(request.file) : undefined;
    return {
      id: request.id,
      ok: true,
      name: loaded.name,
      description: loaded.description,
      ...(result ? { result } : {}),
    };
  } catch (error) {
    return { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
