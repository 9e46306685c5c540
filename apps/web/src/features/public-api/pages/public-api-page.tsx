import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { OPENAPI_DOCS_PATH, PUBLIC_API_TAG, publicApi } from '@guji/shared';
import { hrefOf } from '../../../api/client.ts';
import { usePublicApiLimits } from '../queries.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useSession } from '../../account/queries.ts';
import '../public-api.css';

/** What each v1 route gives, in the order a program uses them. */
const ENDPOINTS: Array<{ path: string; what: string }> = [
  { path: publicApi.books.path, what: '目录检索：q 书名用字，class 分类代码（含下级），page、pageSize 分页' },
  { path: publicApi.book.path, what: '一部书：著录项、各册及其目录（章节指向的页），以及您的阅读权限' },
  { path: publicApi.pages.path, what: '一册的页：编号、尺寸、IIIF 图像地址、文字地址' },
  { path: publicApi.pageText.path, what: '一页当前版本的识别文字，每个字带字框（图像像素）和置信度' },
  {
    path: publicApi.search.path,
    what: '全文检索（与本站同一检索式：空格为“与”，"短语"，OR，-排除，NEAR/n），按书分组，含精确计数与命中片段',
  },
  { path: publicApi.classifications.path, what: '分类树：class 参数可用的代码' },
  { path: publicApi.whoami.path, what: '令牌对应的用户与当前的速率限制，用来检查令牌' },
];

const ERRORS: Array<[string, string, string]> = [
  ['400', 'VALIDATION', '参数不正确，message 说明哪一个'],
  ['401', 'API_TOKEN_REQUIRED', '需要令牌才能读取（受限书籍的页面文字、全文检索）'],
  ['401', 'API_TOKEN_INVALID', '令牌不存在、已撤销或其用户已停用'],
  ['403', 'READING_ROOM_ONLY', '该书（或全文检索）仅在阅览室提供，或需预约权限'],
  ['404', 'NO_DATA', '书、册或页不存在或未公开'],
  ['429', 'RATE_LIMITED', '超过速率限制；Retry-After 给出需等待的秒数'],
];

/** What the API states about this visitor's limits (GET /api/v1/whoami), once it has come. */
type Limits = ReturnType<typeof usePublicApiLimits>['data'];

/** The site's page for researchers about the public read API (docs/public-api.md has the full text). */
export function PublicApiPage() {
  useDocumentTitle('数据接口');
  const signedIn = Boolean(useSession().data?.user);
  const limits = usePublicApiLimits();

  return (
    <div className="page-narrow public-api-page">
      <h1 className="page-title">数据接口（API）</h1>
      <p>
        本馆为数字人文研究提供只读的公开数据接口：目录、书籍结构、页面文字（含每个字的位置）和全文检索，均以
        JSON 返回。接口的权限与网站相同——令牌代表您本人，您在网站上能读的书，用令牌也能读。
      </p>

      <TokenSection signedIn={signedIn} />

      <RateLimitSection limits={limits.data} />

      <EndpointsSection />

      <ExamplesSection />

      <ErrorsSection />

      <VersionSection />

      <StandardsSection />
    </div>
  );
}

/** 1. How to get a token (on 我的信息 once signed in) and send it; what needs none. */
function TokenSection({ signedIn }: { signedIn: boolean }) {
  return (
    <Section title="1. 获取令牌">
      <p>
        在{signedIn ? <Link to="/PersonalPage/Infor">我的信息</Link> : <Link to="/Login">登录</Link>}
        后的“API 令牌”一栏新建令牌。令牌只在创建时显示一次，请妥善保存；不用时可随时撤销，撤销立即生效。
      </p>
      <p>请求时放在请求头中（不使用 Cookie）：</p>
      <pre className="api-code" tabIndex={0} role="region" aria-label="请求头示例">
        Authorization: Bearer gj_…
      </pre>
      <p>
        不带令牌也可以读取目录、书籍结构，以及公开书籍的页面列表和页面文字（与其 IIIF
        文字层相同）；受限书籍的页面文字与全文检索需要令牌。
      </p>
    </Section>
  );
}

/** 2. The rate limits: the numbers the API states when they have come, else where to read them. */
function RateLimitSection({ limits }: { limits: Limits }) {
  return (
    <Section title="2. 速率限制">
      {limits ? (
        <p>
          每个令牌每分钟最多 {limits.limits.tokenPerMinute} 次请求；不带令牌时每个网络地址每分钟最多{' '}
          {limits.limits.anonymousPerMinute} 次。
        </p>
      ) : (
        <p>每个令牌与每个网络地址各有每分钟的请求上限（可在接口 {publicApi.whoami.path} 查看）。</p>
      )}
      <p>
        每个响应都带有 RateLimit-Limit、RateLimit-Remaining、RateLimit-Reset 头；超过上限时返回 429，
        Retry-After 给出需等待的秒数。
      </p>
    </Section>
  );
}

/** 3. The v1 routes, each with what it gives, and the OpenAPI documentation. */
function EndpointsSection() {
  const docs = `${OPENAPI_DOCS_PATH}#/${PUBLIC_API_TAG}`;
  return (
    <Section title="3. 接口">
      <ul className="api-endpoints">
        {ENDPOINTS.map((endpoint) => (
          <li key={endpoint.path}>
            <code>GET {endpoint.path.replace(/:(\w+)/g, '{$1}')}</code>
            <span>{endpoint.what}</span>
          </li>
        ))}
      </ul>
      <p>
        完整的字段说明与示例见 <a href={docs}>OpenAPI 文档（v1 分组）</a>。
      </p>
    </Section>
  );
}

/** 4. curl examples against this site, with the token where one is needed, and how lists page. */
function ExamplesSection() {
  const origin = window.location.origin;
  const example = (url: string, token = true) =>
    `curl ${token ? '-H "Authorization: Bearer $GUJI_TOKEN" ' : ''}"${origin}${url}"`;
  return (
    <Section title="4. 示例">
      <pre className="api-code" tabIndex={0} role="region" aria-label="curl 示例">
        {[
          example(hrefOf(publicApi.books, {}, { q: '論語', pageSize: 5 }), false),
          example(hrefOf(publicApi.book, { bookId: 1 }), false),
          example(hrefOf(publicApi.pageText, { bookId: 1, pageId: 1 })),
          example(hrefOf(publicApi.search, {}, { q: '學而' })),
        ].join('\n\n')}
      </pre>
      <p>
        列表分页：响应中的 next 与 Link 头给出下一页地址，最后一页为 null。链接均为本站路径，IIIF
        图像和清单可直接交给 Mirador 等 IIIF 阅读器。
      </p>
    </Section>
  );
}

/** 5. The errors: status, stable code and meaning. */
function ErrorsSection() {
  return (
    <Section title="5. 错误">
      <p>错误以 JSON 返回：code 是稳定的英文代码，message 是中文说明。</p>
      <table className="api-errors">
        <thead>
          <tr>
            <th>状态</th>
            <th>code</th>
            <th>含义</th>
          </tr>
        </thead>
        <tbody>
          {ERRORS.map(([status, code, meaning]) => (
            <tr key={code}>
              <td>{status}</td>
              <td>
                <code>{code}</code>
              </td>
              <td>{meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

/** 6. What v1 promises to keep, and how an incompatible change arrives. */
function VersionSection() {
  return (
    <Section title="6. 版本与稳定性">
      <p>
        路径中的 v1 是接口版本。v1
        之内只会增加字段或接口，不会改名、删除或改变已有字段的含义；编号（书、册、页、目录）长期不变。
        不兼容的修改将以 v2 发布，v1 在此后至少保留一年。
      </p>
    </Section>
  );
}

/** 7. The other open standards (OAI-PMH, MARCXML, citations, IIIF), which need no token. */
function StandardsSection() {
  return (
    <Section title="7. 其他开放标准">
      <p>图书馆与其他系统还可以通过下列标准接口交换数据，无需令牌：</p>
      <ul>
        <li>
          <code>/oai</code>：OAI-PMH 2.0
          元数据收割（oai_dc、MODS），按分类设集合，保留删除记录，供联合目录与聚合平台使用。
        </li>
        <li>
          <code>/api/marcxml</code>、<code>/api/books/{'{bookId}'}/marcxml</code>：MARCXML 书目记录（MARC21 或
          CNMARC）。
        </li>
        <li>
          <code>/api/books/{'{bookId}'}/citation/ris</code>（以及 bibtex、csl-json）：引文导出，书页中也带有
          Zotero 可识别的书目信息。
        </li>
        <li>
          <code>/iiif/presentation/books/{'{bookId}'}/collection.json</code>：IIIF Presentation 3.0 清单，可在
          Mirador、Universal Viewer 等阅读器中打开。
        </li>
      </ul>
    </Section>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="api-section">
      <h2>{title}</h2>
      {children}
    </section>
  );
}
