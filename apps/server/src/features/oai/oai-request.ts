/**
 * The arguments of an OAI-PMH 2.0 request (http://www.openarchives.org/OAI/openarchivesprotocol.html §3.1,
 * §4): which verb, which arguments it allows and requires, the datestamps of selective harvesting and the
 * resumption token that carries a list on. Pure: every protocol error is an OaiError with its code.
 */

export const VERBS = [
  'Identify',
  'ListMetadataFormats',
  'ListSets',
  'ListIdentifiers',
  'ListRecords',
  'GetRecord',
] as const;
export type OaiVerb = (typeof VERBS)[number];

export type OaiErrorCode =
  | 'badArgument'
  | 'badResumptionToken'
  | 'badVerb'
  | 'cannotDisseminateFormat'
  | 'idDoesNotExist'
  | 'noRecordsMatch'
  | 'noMetadataFormats'
  | 'noSetHierarchy';

export class OaiError extends Error {
  constructor(
    readonly code: OaiErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A list request, whether from arguments or a resumption token: the selection and where the last page ended. */
export interface ListQuery {
  metadataPrefix: string;
  set: string | undefined;
  /** Inclusive bounds as full UTC datestamps (a day's `from` is its first second, `until` its last). */
  from: string | undefined;
  until: string | undefined;
  /** Records of books after this id come next (0: from the start). */
  after: number;
  /** How many records the pages before this one held. */
  cursor: number;
}

export type OaiRequest =
  | { verb: 'Identify' }
  | { verb: 'ListMetadataFormats'; identifier: string | undefined }
  | { verb: 'ListSets' }
  | { verb: 'GetRecord'; identifier: string; metadataPrefix: string }
  | { verb: 'ListIdentifiers' | 'ListRecords'; list: ListQuery; resumed: boolean };

/** Arguments each verb allows; `required` ones must be present unless the verb was resumed. */
const ARGUMENTS: Record<OaiVerb, { allowed: string[]; required: string[]; exclusive?: string }> = {
  Identify: { allowed: [], required: [] },
  ListMetadataFormats: { allowed: ['identifier'], required: [] },
  ListSets: { allowed: ['resumptionToken'], required: [], exclusive: 'resumptionToken' },
  GetRecord: { allowed: ['identifier', 'metadataPrefix'], required: ['identifier', 'metadataPrefix'] },
  ListIdentifiers: {
    allowed: ['metadataPrefix', 'from', 'until', 'set', 'resumptionToken'],
    required: ['metadataPrefix'],
    exclusive: 'resumptionToken',
  },
  ListRecords: {
    allowed: ['metadataPrefix', 'from', 'until', 'set', 'resumptionToken'],
    required: ['metadataPrefix'],
    exclusive: 'resumptionToken',
  },
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECOND = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/**
 * Reads the request's arguments (pairs in the order sent, so that a repeated one is seen). A missing,
 * unknown or repeated verb is `badVerb`; an argument the verb does not allow, a missing required one, a
 * repeated one, or a value of the wrong syntax is `badArgument`.
 */
export function parseOaiRequest(pairs: ReadonlyArray<readonly [string, string]>): OaiRequest {
  const verbs = pairs.filter(([key]) => key === 'verb').map(([, value]) => value);
  if (verbs.length === 0) throw new OaiError('badVerb', '缺少 verb 参数');
  if (verbs.length > 1) throw new OaiError('badVerb', 'verb 参数重复');
  const verb = VERBS.find((v) => v === verbs[0]);
  if (!verb) throw new OaiError('badVerb', `不支持的 verb：${verbs[0]}`);

  const rule = ARGUMENTS[verb];
  const args = new Map<string, string>();
  for (const [key, value] of pairs) {
    if (key === 'verb') continue;
    if (!rule.allowed.includes(key)) throw new OaiError('badArgument', `${verb} 不接受参数 ${key}`);
    if (args.has(key)) throw new OaiError('badArgument', `参数 ${key} 重复`);
    args.set(key, value);
  }
  if (rule.exclusive && args.has(rule.exclusive)) {
    if (args.size > 1) throw new OaiError('badArgument', `${rule.exclusive} 须单独使用，不能与其他参数同用`);
  } else {
    for (const key of rule.required)
      if (!args.get(key)) throw new OaiError('badArgument', `${verb} 缺少必需参数 ${key}`);
  }

  switch (verb) {
    case 'Identify':
      return { verb };
    case 'ListMetadataFormats':
      return { verb, identifier: args.get('identifier') };
    case 'ListSets':
      // Sets come in one answer, so no token of ours is ever valid here.
      if (args.has('resumptionToken'))
        throw new OaiError('badResumptionToken', '集合列表不分页，没有有效的续传令牌');
      return { verb };
    case 'GetRecord':
      return { verb, identifier: args.get('identifier')!, metadataPrefix: args.get('metadataPrefix')! };
    case 'ListIdentifiers':
    case 'ListRecords': {
      const token = args.get('resumptionToken');
      if (token !== undefined) return { verb, list: decodeToken(token), resumed: true };
      const [from, until] = dateRange(args.get('from'), args.get('until'));
      const set = args.get('set');
      if (set !== undefined && !SET_SPEC.test(set))
        throw new OaiError('badArgument', `set 的格式不正确：${set}`);
      return {
        verb,
        list: { metadataPrefix: args.get('metadataPrefix')!, set, from, until, after: 0, cursor: 0 },
        resumed: false,
      };
    }
  }
}

/** A setSpec: colon-separated elements of URI unreserved characters. */
export const SET_SPEC = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;

/** Both bounds in one granularity, real dates, `from` not after `until`; as full datestamps. */
function dateRange(
  from: string | undefined,
  until: string | undefined,
): [string | undefined, string | undefined] {
  const a = from === undefined ? undefined : datestamp('from', from, 'start');
  const b = until === undefined ? undefined : datestamp('until', until, 'end');
  if (a && b && a.granularity !== b.granularity)
    throw new OaiError('badArgument', 'from 与 until 的时间精度不同（须同为日期或同为秒）');
  if (a && b && a.value > b.value) throw new OaiError('badArgument', 'from 晚于 until');
  return [a?.value, b?.value];
}

function datestamp(name: string, text: string, edge: 'start' | 'end') {
  const day = DAY.exec(text);
  const second = day ? undefined : SECOND.exec(text);
  const parts = (day ?? second)?.slice(1).map(Number);
  if (!parts) throw new OaiError('badArgument', `${name} 须为 YYYY-MM-DD 或 YYYY-MM-DDThh:mm:ssZ：${text}`);
  const [y, mo, d, h = 0, mi = 0, s = 0] = parts as [number, number, number, number?, number?, number?];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const real =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s;
  if (!real) throw new OaiError('badArgument', `${name} 不是有效的日期时间：${text}`);
  if (second) return { granularity: 'second', value: text };
  return { granularity: 'day', value: `${text}T${edge === 'start' ? '00:00:00' : '23:59:59'}Z` };
}

/** A resumption token: the list's selection and position, as base64url JSON (nothing secret in it). */
export function encodeToken(query: ListQuery): string {
  const body = [
    query.metadataPrefix,
    query.set ?? null,
    query.from ?? null,
    query.until ?? null,
    query.after,
    query.cursor,
  ];
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

function decodeToken(token: string): ListQuery {
  const bad = () => new OaiError('badResumptionToken', '续传令牌无效或已损坏');
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(token)) throw bad();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(body) || body.length !== 6) throw bad();
  const [prefix, set, from, until, after, cursor] = body as unknown[];
  const text = (v: unknown) => v === null || (typeof v === 'string' && v.length <= 100);
  const count = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  if (
    typeof prefix !== 'string' ||
    !text(set) ||
    !text(from) ||
    !text(until) ||
    !count(after) ||
    !count(cursor)
  )
    throw bad();
  if (set !== null && !SET_SPEC.test(set as string)) throw bad();
  for (const bound of [from, until]) if (bound !== null && !SECOND.test(bound as string)) throw bad();
  return {
    metadataPrefix: prefix,
    set: (set as string | null) ?? undefined,
    from: (from as string | null) ?? undefined,
    until: (until as string | null) ?? undefined,
    after: after as number,
    cursor: cursor as number,
  };
}
