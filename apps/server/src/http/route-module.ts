import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { JobWorker } from '../jobs/worker.ts';
import type { JobDataMap } from '../jobs/registry.ts';

export interface RouteDeps {
  context: AppContext;
  /** The in-process job worker, when this process runs one. */
  worker: JobWorker<JobDataMap> | undefined;
}

export type RouteModule = (app: FastifyInstance, deps: RouteDeps) => void;
