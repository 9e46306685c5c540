import { useEffect, useState } from 'react';
import { Alert, Button, Empty, Input, Modal, Skeleton } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MSG } from '@guji/shared';
import { useSiteSettings } from '../api/site.ts';
import { useDocumentTitle } from '../components/use-document-title.ts';
import { useHotBooks } from '../features/catalog/queries.ts';
import { BookCard, excerpt, searchPath } from '../features/catalog/shell.ts';

/** Spec §9: the tip banner hides itself after 10 s. */
const TIP_VISIBLE_MS = 10_000;
/** Characters of the introduction shown before 'view more'. */
const INTRO_TEASER_CHARS = 120;

/**
 * / and /home: the banner with the title search, the collection introduction, and the hot-browse grid
 * (spec §2).
 *
 * `/?__crash=1` renders a component that throws, so browser tests can see the fallback error page
 * of render crashes; it exposes nothing and changes no data.
 */
export function HomePage() {
  useDocumentTitle();
  const [searchParams] = useSearchParams();
  const site = useSiteSettings();

  return (
    <div className="home-page">
      {searchParams.get('__crash') === '1' && <CrashTest />}
      <HomeBanner siteName={site.data?.siteName} />
      <div className="page home-content">
        <TipBanner />
        {site.data ? (
          site.data.introduction && <Introduction text={site.data.introduction} />
        ) : (
          <Skeleton active paragraph={{ rows: 3 }} />
        )}
        <HotBooks />
      </div>
    </div>
  );
}

function HomeBanner({ siteName }: { siteName: string | undefined }) {
  const navigate = useNavigate();
  return (
    <section className="home-banner" aria-labelledby="home-title">
      <div className="home-banner-inner">
        <h1 id="home-title" className="home-title">
          {siteName ?? '古籍数字图书馆'}
        </h1>
        <form
          role="search"
          aria-label="书名检索"
          className="home-search"
          onSubmit={(event) => event.preventDefault()}
        >
          <Input.Search
            aria-label="书名"
            placeholder="请输入书名"
            enterButton="检索"
            size="large"
            maxLength={100}
            onSearch={(value) => void navigate(searchPath({ title: value }))}
          />
          <Link to="/AdvancedSearch" className="home-advanced-link">
            高级检索
          </Link>
        </form>
      </div>
    </section>
  );
}

function TipBanner() {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const timer = window.setTimeout(() => setVisible(false), TIP_VISIBLE_MS);
    return () => window.clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <Alert
      className="home-tip"
      type="info"
      showIcon
      role="status"
      title="提示：点击书名可查看古籍详情"
      closable={{ onClose: () => setVisible(false), 'aria-label': '关闭提示' }}
    />
  );
}

function Introduction({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const teaser = excerpt(text, INTRO_TEASER_CHARS);
  const paragraphs = text.split(/\n+/).filter((paragraph) => paragraph.trim() !== '');
  return (
    <section className="home-intro" aria-labelledby="home-intro-title">
      <h2 id="home-intro-title">馆藏介绍</h2>
      <p>{teaser.text}</p>
      {teaser.truncated && (
        <>
          <Button
            type="link"
            className="more-link"
            aria-label="查看更多馆藏介绍"
            onClick={() => setOpen(true)}
          >
            查看更多
          </Button>
          <Modal
            title="馆藏介绍"
            open={open}
            onCancel={() => setOpen(false)}
            footer={
              <Button type="primary" onClick={() => setOpen(false)}>
                关闭
              </Button>
            }
            width={720}
          >
            <div className="home-intro-full">
              {paragraphs.map((paragraph, index) => (
                <p key={index}>{paragraph}</p>
              ))}
            </div>
          </Modal>
        </>
      )}
    </section>
  );
}

function HotBooks() {
  const hot = useHotBooks();
  const books = hot.data?.pages.flatMap((page) => page.records) ?? [];
  return (
    <section className="home-hot" aria-labelledby="home-hot-title">
      <h2 id="home-hot-title">热门浏览</h2>
      {hot.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : books.length === 0 ? (
        <Empty description={MSG.noData} />
      ) : (
        <>
          <ul className="book-grid">
            {books.map((book) => (
              <li key={book.catalogId}>
                <BookCard book={book} />
              </li>
            ))}
          </ul>
          {hot.hasNextPage && (
            <div className="home-hot-more">
              <Button
                aria-label="查看更多热门古籍"
                loading={hot.isFetchingNextPage}
                onClick={() => void hot.fetchNextPage()}
              >
                查看更多
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function CrashTest(): never {
  throw new Error('Crash requested by ?__crash=1');
}
