import { Button, Popconfirm, Tag } from 'antd';
import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { DOWNLOAD_KIND_LABELS, MSG, notesApi, type PersonalBook } from '@guji/shared';
import { hrefOf } from '../../../api/client.ts';
import { toast } from '../../../components/toast.ts';
import { BookCover } from '../../../components/book-cover.tsx';
import { readerPath } from '../../../lib/reader-url.ts';
import { formatTime, PersonalList, usePageParam } from '../../../components/personal-list.tsx';
import {
  useCollections,
  useCommentMutations,
  useDownloads,
  useFootprints,
  useMyComments,
  useMyNotes,
  usePersonalMutation,
  usePrivileges,
  removeDownload,
  removeFootprint,
} from '../queries.ts';
import { BookText, noConvert } from '../../../components/book-text.tsx';

/** Cover, title (to the book page) and author: the start of most personal rows. */
function BookCell({ book, to }: { book: PersonalBook; to?: string }) {
  return (
    <div className="personal-book">
      <BookCover title={book.title} coverUrl={book.coverUrl} width={56} height={56} />
      <div>
        <Link to={to ?? `/SearchPage/${book.catalogId}`} className="personal-book-title" {...noConvert}>
          {book.title}
        </Link>
        {book.author ? (
          <div className="personal-book-meta" {...noConvert}>
            {book.author}
          </div>
        ) : (
          <div className="personal-book-meta">佚名</div>
        )}
      </div>
    </div>
  );
}

const done = (message: string) => () => toast.success(message);

/** 我的收藏: collected books, newest first, each opening its book page. */
export function CollectionChannel() {
  const [page, setPage] = usePageParam();
  const query = useCollections(page);
  return (
    <PersonalList
      query={query}
      label="我的收藏"
      empty="还没有收藏的古籍。在古籍详情页点击「收藏」即可加入。"
      onPage={setPage}
      rowKey={(item) => item.book.catalogId}
      row={(item) => (
        <>
          <BookCell book={item.book} />
          <span className="personal-time">收藏于 {formatTime(item.createdAt)}</span>
        </>
      )}
    />
  );
}

/** 我的下载: what the reader downloaded; each downloads again (the access rule is checked again). */
export function DownloadChannel() {
  const [page, setPage] = usePageParam();
  const query = useDownloads(page);
  const remove = usePersonalMutation(removeDownload);
  return (
    <PersonalList
      query={query}
      label="我的下载"
      empty="还没有下载记录。在阅读器中可下载页面图像、文字或整册。"
      onPage={setPage}
      rowKey={(item) => item.id}
      row={(item) => (
        <>
          <BookCell book={item.book} />
          <div className="personal-detail">
            <Tag>{DOWNLOAD_KIND_LABELS[item.kind]}</Tag>
            <BookText>{item.volumeName}</BookText>
            {item.pageNumber !== null && ` 第 ${item.pageNumber} 页`}
          </div>
          <span className="personal-time">{formatTime(item.createdAt)}</span>
          <div className="personal-actions">
            <Button href={item.url} download icon={<DownloadOutlined aria-hidden />}>
              再次下载
            </Button>
            <Popconfirm
              title="删除这条下载记录？"
              okText="删除"
              cancelText="取消"
              onConfirm={() => void remove.mutateAsync(item.id).then(done(MSG.deleteSuccess))}
            >
              <Button icon={<DeleteOutlined aria-hidden />} aria-label="删除下载记录">
                删除
              </Button>
            </Popconfirm>
          </div>
        </>
      )}
    />
  );
}

/** 我的评论: one's comments with their books; delete. Hidden ones say so. */
export function CommentChannel() {
  const [page, setPage] = usePageParam();
  const query = useMyComments(page);
  const { remove } = useCommentMutations();
  return (
    <PersonalList
      query={query}
      label="我的评论"
      empty="还没有发表评论。"
      onPage={setPage}
      rowKey={(item) => item.id}
      row={(item) => (
        <>
          <BookCell book={item.book} />
          <p className="personal-text">
            <BookText>{item.text}</BookText>
            {item.hidden && <Tag className="personal-hidden">已被管理员隐藏</Tag>}
          </p>
          <span className="personal-time">{formatTime(item.createdAt)}</span>
          <div className="personal-actions">
            <Popconfirm
              title="删除这条评论？"
              okText="删除"
              cancelText="取消"
              onConfirm={() => void remove.mutateAsync(item.id).then(done(MSG.deleteSuccess))}
            >
              <Button icon={<DeleteOutlined aria-hidden />}>删除</Button>
            </Popconfirm>
          </div>
        </>
      )}
    />
  );
}

/** 我的批注: one's notes; each opens the reader at its page; all export as W3C Web Annotations. */
export function NotationChannel() {
  const [page, setPage] = usePageParam();
  const query = useMyNotes(page);
  return (
    <PersonalList
      query={query}
      label="我的批注"
      empty="还没有批注。在阅读器中点「批注」，在页面上框选一处即可写下笔记。"
      onPage={setPage}
      actions={
        <Button
          href={hrefOf(notesApi.export)}
          download="notes.jsonld"
          icon={<DownloadOutlined aria-hidden />}
        >
          导出（W3C Web Annotation）
        </Button>
      }
      rowKey={(item) => item.id}
      row={(item) => {
        const to = readerPath({
          catalogId: item.book.catalogId,
          fascicleId: item.volumeId,
          imageId: item.imageId,
        });
        return (
          <>
            <BookCell book={item.book} to={to} />
            <div className="personal-detail">
              <BookText>{item.volumeName}</BookText> 第 {item.pageNumber} 页
            </div>
            <p className="personal-text" {...noConvert}>
              {item.text}
            </p>
            <span className="personal-time">{formatTime(item.updatedAt)}</span>
            <div className="personal-actions">
              <Link to={to} className="ant-btn ant-btn-default">
                打开
              </Link>
            </div>
          </>
        );
      }}
    />
  );
}

/** 我的足迹: one row per book with the last page read and when; remove one or all. */
export function TrackChannel() {
  const [page, setPage] = usePageParam();
  const query = useFootprints(page);
  const remove = usePersonalMutation(removeFootprint);
  return (
    <PersonalList
      query={query}
      label="我的足迹"
      empty="还没有浏览记录。"
      onPage={setPage}
      actions={
        <Popconfirm
          title="清空全部足迹？"
          okText="清空"
          cancelText="取消"
          onConfirm={() => void remove.mutateAsync(null).then(done(MSG.deleteSuccess))}
        >
          <Button danger>清空足迹</Button>
        </Popconfirm>
      }
      rowKey={(item) => item.book.catalogId}
      row={(item) => {
        const to = readerPath({
          catalogId: item.book.catalogId,
          fascicleId: item.volumeId,
          imageId: item.imageId,
        });
        return (
          <>
            <BookCell book={item.book} to={to} />
            <div className="personal-detail">
              <BookText>{item.volumeName ?? ''}</BookText>
              {item.pageNumber !== null && ` 读到第 ${item.pageNumber} 页`}
            </div>
            <span className="personal-time">{formatTime(item.viewedAt)}</span>
            <div className="personal-actions">
              <Button
                icon={<DeleteOutlined aria-hidden />}
                onClick={() => void remove.mutateAsync(item.book.catalogId).then(done(MSG.deleteSuccess))}
              >
                删除
              </Button>
            </div>
          </>
        );
      }}
    />
  );
}

/** 古籍特权: approved, unexpired reservations; each opens its book until the expiry time. */
export function VipChannel() {
  const [page, setPage] = usePageParam();
  const query = usePrivileges(page);
  return (
    <PersonalList
      query={query}
      label="古籍特权"
      empty="暂无古籍特权。通过「预约申请」申请阅览受限古籍，审核通过后在此浏览。"
      onPage={setPage}
      rowKey={(item) => item.book.catalogId}
      row={(item) => (
        <>
          <BookCell book={item.book} />
          <span className="personal-time">有效期至 {formatTime(item.expiresAt)}</span>
          <div className="personal-actions">
            <Link to={readerPath({ catalogId: item.book.catalogId })} className="ant-btn ant-btn-primary">
              阅读
            </Link>
          </div>
        </>
      )}
    />
  );
}
