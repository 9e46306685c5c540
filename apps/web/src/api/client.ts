import {
  MSG,
  urlOf,
  type CallInput,
  type Contract,
  type ErrorBody,
  type PathParamNames,
  type PathParams,
  type QueryOf,
  type ResponseOf,
} from '@guji/shared';
import { toast } from '../components/toast.ts';
import { isSignedOutError } from './signed-out.ts';

/** A failed API call: the HTTP status (0 when the network failed) and the server's code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** A JSON body. */
  json?: unknown;
  /** A multipart body (file uploads). */
  form?: FormData;
  /** Show no error toast: the caller words the failure itself. */
  quiet?: boolean;
  /**
   * Skip the signed-out handling of a 401. For sign-in calls (login, single sign-on), where a 401
   * answers the credentials rather than an expired session.
   */
  ignoreUnauthorized?: boolean;
  signal?: AbortSignal;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => undefined;

/** Installs what happens when a call finds the session ended (clear it, then navigate). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

async function readErrorBody(response: Response): Promise<Partial<ErrorBody>> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object') {
      const { code, message } = body as Record<string, unknown>;
      return {
        code: typeof code === 'string' || typeof code === 'number' ? String(code) : undefined,
        message: typeof message === 'string' ? message : undefined,
      };
    }
  } catch {
    // A proxy's HTML error page or an empty body: fall back to the default message.
  }
  return {};
}

/**
 * Calls the API with the session cookie. Resolves with the response body; rejects with an
 * `ApiError` after showing its message (unless `quiet`) and handling an ended session.
 */
async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.form) {
    body = options.form;
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }

  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    const error = new ApiError(0, 'NETWORK', MSG.networkFailed);
    if (!options.quiet) toast.error(error.message);
    throw error;
  }

  if (response.ok) {
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  const errorBody = await readErrorBody(response);
  const error = new ApiError(
    response.status,
    errorBody.code ?? String(response.status),
    errorBody.message ||
      ([502, 503, 504].includes(response.status) ? MSG.serverUnreachable : MSG.serverException),
  );
  if (!options.quiet) toast.error(error.message);
  if (!options.ignoreUnauthorized && isSignedOutError(response.status, errorBody.code)) onUnauthorized();
  throw error;
}

type CallOptions = Omit<RequestOptions, 'method' | 'json' | 'form'>;

/**
 * Whether answers are checked against their contracts: in development, in the unit tests and in the build
 * the browser tests drive (`VITE_CHECK_CONTRACTS=1`, scripts/test.sh); not in the build a library serves.
 */
const CHECK_CONTRACTS = import.meta.env.DEV || import.meta.env.VITE_CHECK_CONTRACTS === '1';

/** Checks an answer against the route's response schema where contracts are checked: a drifted shape fails loudly. */
export function checkResponse(c: Contract, data: unknown): void {
  if (!CHECK_CONTRACTS || !c.response) return;
  const result = c.response.safeParse(data);
  if (!result.success) {
    throw new ApiError(0, 'CONTRACT', `${c.method} ${c.path} 的回答与契约不符：${result.error.message}`);
  }
}

/**
 * Calls a route through its contract (packages/shared/src/contracts): the path is filled in from
 * `params`, the query written out, the body sent as JSON (or as a form for uploads), and the answer
 * typed as the contract declares it and checked against it in development.
 */
export async function call<C extends Contract>(
  c: C,
  input: CallInput<C, FormData>,
  options: CallOptions = {},
): Promise<ResponseOf<C>> {
  const { params, query, body } = input as {
    params?: Record<string, string | number>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  const url = urlOf(c, params, query);
  const data = await request<ResponseOf<C>>(url, {
    ...options,
    method: c.method,
    ...(body instanceof FormData
      ? { form: body }
      : { json: body ?? (c.method === 'GET' || c.method === 'DELETE' ? undefined : {}) }),
  });
  checkResponse(c, data);
  return data;
}

/** The URL of a route that answers a file, an image or a page (for `href` and `src`). */
export function hrefOf<C extends Contract>(
  c: C,
  ...[params, query]: [PathParamNames<C['path']>] extends [never]
    ? [params?: Record<string, never>, query?: QueryOf<C>]
    : [params: PathParams<C['path']>, query?: QueryOf<C>]
): string {
  return urlOf(c, params, query);
}

/** The server's message of a failed call, if it gave one. */
export function serverMessage(error: unknown): string | null {
  return error instanceof ApiError && error.message ? error.message : null;
}
