import { AsyncLocalStorage } from 'node:async_hooks';

/** What code deep inside a request may need of it without having it passed down: its id, for logs. */
export interface RequestScope {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `work` (and everything it starts) inside the request's scope. */
export function runInRequest<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

/** The id of the request this code runs for; undefined outside a request (the worker, the CLI). */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
