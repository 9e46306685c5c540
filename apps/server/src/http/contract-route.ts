import type { FastifyInstance, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { Contract } from '@guji/shared';

/** A route's non-200 answers (error bodies), keyed by status. */
export type ErrorAnswers = Partial<Record<number, z.ZodType>>;

type ResponsesOf<C extends Contract, E extends ErrorAnswers> = C['response'] extends z.ZodType
  ? { 200: C['response'] } & E
  : E;

/** The Fastify schema a contract declares, typed so the Zod type provider types the handler from it. */
export interface SchemaOf<C extends Contract, E extends ErrorAnswers> {
  tags: string[];
  summary: string;
  params: C['params'];
  querystring: C['query'];
  body: C['multipart'] extends true ? undefined : C['body'];
  response: ResponsesOf<C, E>;
}

/** What Fastify's route config carries for a contract route (the boot check reads `contract`). */
export interface ContractConfig {
  contract: Contract;
}

/**
 * The method, path, schemas and config of a route, from its contract in packages/shared:
 * `r.route({ ...routeOf(contract, errors), handler })`. Every /api route is registered this way
 * (`assertContractRoutes` refuses to start a server with one that is not).
 */
export function routeOf<const C extends Contract, const E extends ErrorAnswers = Record<never, never>>(
  c: C,
  errors?: E,
  config: Record<string, unknown> = {},
) {
  const response = c.response ? { 200: c.response, ...errors } : { ...errors };
  // Only the parts the contract declares: Fastify warns about a schema key that is present but empty.
  const schema = {
    tags: [...c.tags],
    summary: c.summary,
    ...(c.params ? { params: c.params } : {}),
    ...(c.query ? { querystring: c.query } : {}),
    ...(c.body && !c.multipart ? { body: c.body } : {}),
    // Uploads: the OpenAPI document says the route takes a form.
    ...(c.multipart ? { consumes: ['multipart/form-data'] } : {}),
    // The public read API takes a personal token, or none (docs/public-api.md); the rest the session.
    ...(c.path.startsWith('/api/v1/') ? { security: [{ bearer: [] }, {}] } : {}),
    response,
  } as SchemaOf<C, E>;
  return {
    method: c.method,
    url: c.path,
    schema,
    config: { ...config, contract: c } satisfies ContractConfig,
  };
}

/** Paths under /api that are not contract routes: the OpenAPI document and its viewer. */
const UNDECLARED_PREFIXES = ['/api/docs'];

/**
 * Refuses, as routes are added, any /api route registered without a contract: every route the web
 * app or another library calls is declared once in packages/shared (issue 15).
 */
export function assertContractRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/')) return;
    if (UNDECLARED_PREFIXES.some((prefix) => route.url.startsWith(prefix))) return;
    const config = route.config as Partial<ContractConfig> | undefined;
    if (route.method === 'HEAD' && config?.contract) return;
    if (!config?.contract) {
      throw new Error(`路由 ${String(route.method)} ${route.url} 没有在 packages/shared 的契约中声明`);
    }
    if (config.contract.path !== route.url) {
      throw new Error(`路由 ${route.url} 与其契约的路径 ${config.contract.path} 不符`);
    }
  });
}
