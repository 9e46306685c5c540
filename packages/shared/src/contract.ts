import type { z } from 'zod';

/**
 * One API route, declared once (issue 15). The server registers the route from it (`routeOf` in
 * apps/server/src/http/contract-route.ts: method, path and every schema), and the web app calls it
 * through it (`call` / `hrefOf` in apps/web/src/api/client.ts), so a path, a parameter or a shape
 * can only change in one place and both sides follow.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Contract {
  method: HttpMethod;
  /** Fastify's path template, e.g. `/api/books/:id/collect`. */
  path: string;
  /** What the route does, in the OpenAPI document (and the spec call it answers, where one does). */
  summary: string;
  /** The OpenAPI group. */
  tags: readonly string[];
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body; with `multipart` the body is a form of files and fields instead. */
  body?: z.ZodType;
  /** The 200 answer's JSON; `null` for a route that answers a file, an image or a redirect. */
  response: z.ZodType | null;
  /** The route takes a multipart form (file uploads). */
  multipart?: true;
}

/** Declares a route's contract; keeps every literal type (method, path, schemas). */
export function contract<const C extends Contract>(c: C): C {
  return c;
}

type Segments<P extends string> = P extends `${infer Head}/${infer Rest}`
  ? Segments<Head> | Segments<Rest>
  : P extends `:${infer Name}`
    ? Name
    : never;

/** The names of a path template's parameters: `'/api/books/:id/pages/:seq'` → `'id' | 'seq'`. */
export type PathParamNames<P extends string> = Segments<P>;

/** A path template's parameters as a caller fills them in. */
export type PathParams<P extends string> = { [K in PathParamNames<P>]: string | number };

/** The query a caller sends (each value is written out as text). */
export type QueryOf<C extends Contract> = C extends { query: infer Q extends z.ZodType }
  ? { [K in keyof z.output<Q>]?: z.output<Q>[K] | null }
  : never;

/** The JSON body a caller sends, as the route's schema takes it (`Form` for an upload route). */
export type BodyOf<C extends Contract, Form = never> = C extends { multipart: true }
  ? Form
  : C extends { body: infer B extends z.ZodType }
    ? z.input<B>
    : never;

/** The route's 200 answer. */
export type ResponseOf<C extends Contract> = C extends { response: infer R extends z.ZodType }
  ? z.output<R>
  : never;

/** What a call of a route takes: its path parameters, query and body, as its contract declares them. */
/** `Form` is the caller's form type for uploads (FormData in a browser). */
export type CallInput<C extends Contract, Form = never> = ([PathParamNames<C['path']>] extends [never]
  ? { params?: undefined }
  : { params: PathParams<C['path']> }) &
  (C extends { query: z.ZodType } ? { query?: QueryOf<C> } : { query?: undefined }) &
  (C extends { multipart: true } | { body: z.ZodType } ? { body: BodyOf<C, Form> } : { body?: undefined });

/** Fills a path template's parameters in (each encoded as a path segment). */
export function pathOf(template: string, params: Record<string, string | number> | undefined): string {
  return template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`缺少路径参数 ${name}（${template}）`);
    return encodeURIComponent(String(value));
  });
}

/** Writes a query out: empty values are left out, arrays repeat their key. */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const pairs: string[] = [];
  const add = (key: string, value: unknown) =>
    pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      for (const item of value as unknown[]) add(key, item);
    } else {
      add(key, value);
    }
  }
  return pairs.length ? `?${pairs.join('&')}` : '';
}

/** The URL of a route with its parameters and query filled in. */
export function urlOf(
  c: Pick<Contract, 'path'>,
  params?: Record<string, string | number>,
  query?: Record<string, unknown>,
): string {
  return pathOf(c.path, params) + queryString(query);
}
