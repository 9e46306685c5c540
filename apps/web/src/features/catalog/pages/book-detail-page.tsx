import { useEffect, useState } from 'react';
import { Button, Empty, Tag } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { Link, useNavigate, useParams, useSearchParams, type SetURLSearchParams } from 'react-router';
import { MSG, type BookDetail, type DirectoryNode, type Volume } from '@guji/shared';
import { ApiError } from '../../../api/client.ts';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { toast } from '../../../components/toast.ts';
import { useDelayedAction } from '../../../components/use-delayed-action.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { preloadReader } from '../../reader/index.ts';
import { positiveId, readerPath } from '../../../lib/reader-url.ts';
import { openOutcome, orNone } from '../book-access.ts';
import { BookCover } from '../../../components/book-cover.tsx';
import { BookContents } from '../components/book-contents.tsx';
import { BookEditModal } from '../components/book-edit-modal.tsx';
import { useBook, useVolumes } from '../queries.ts';
import { InBookResults, InBookSearchBox } from '../components/in-book-search.tsx';
import { useSession } from '../../account/queries.ts';
import { appointmentPathFor, CollectButton } from '../../personal/index.ts';
import { BookComments } from '../../personal/index.ts';
import { IiifLinks } from '../../../components/iiif-links.tsx';
import { noConvert } from '../../../components/book-text.tsx';
import { useCitationTags } from '../../reader/index.ts';
import { BookCitation } from '../components/book-citation.tsx';

/**
 * /SearchPage/{catalogId}: a book's catalogue record, its volumes and the directory of the selected
 * volume; opening an entry goes to the reader when the book may be read (DESIGN.md §7).
 */
export function BookDetailPage() {
  const catalogId = positiveId(useParams().catalogId);
  const book = useBook(catalogId);
  useDocumentTitle(book.data?.title ?? '古籍详情');
  // The served citation tags name this book: they go when another book or screen is shown.
  useCitationTags(String(catalogId));

  if (catalogId == null || (book.error instanceof ApiError && book.error.status === 404)) {
    return <NoBook />;
  }
  if (book.isError) {
    return (
      <div className="page">
        <Breadcrumbs second={{ title: '古籍检索', to: '/SearchPage' }} third={{ title: '古籍详情' }} />
        <Empty description={book.error.message || MSG.serverException} />
      </div>
    );
  }
  if (!book.data) return <PageLoading />;
  return <BookDetailView book={book.data} />;
}

function NoBook() {
  return (
    <div className="page">
      <Breadcrumbs second={{ title: '古籍检索', to: '/SearchPage' }} third={{ title: '古籍详情' }} />
      <Empty description={MSG.noData}>
        <Link to="/SearchPage">返回古籍检索</Link>
      </Empty>
    </div>
  );
}

function BookDetailView({ book }: { book: BookDetail }) {
  const openReader = useOpenReader(book.access);
  const volumes = useVolumes(book.catalogId);
  // The selected volume lives in the address (?fascicleId=), so reload, back and a shared link keep it.
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedId = positiveId(searchParams.get('fascicleId'));
  const setSelectedId = (fascicleId: number) =>
    setSearchParams(
      (params) => {
        params.set('fascicleId', String(fascicleId));
        return params;
      },
      { replace: true },
    );
  const [editing, setEditing] = useState(false);
  const list = volumes.data ?? [];
  const selected = list.find((volume) => volume.fascicleId === selectedId) ?? list[0] ?? null;

  useEffect(() => {
    if (book.access.canRead) preloadReader();
  }, [book.access.canRead]);

  const { readingRoom, inBookText, inBookPage, setInBook } = useInBookSearch(searchParams, setSearchParams);

  /** Opens the reader at an entry (or the volume's first page), or says why it cannot (DESIGN.md §7). */
  const open = (volume: Volume, entry: DirectoryNode | null) =>
    openReader(
      readerPath({
        catalogId: book.catalogId,
        fascicleId: volume.fascicleId,
        directoryId: entry?.directoryId ?? null,
        imageId: entry?.imageId ?? null,
      }),
    );

  return (
    <div className="page book-page">
      <Breadcrumbs
        second={{ title: '古籍检索', to: '/SearchPage' }}
        third={{ title: book.title, keep: true }}
      />
      <BookHeader book={book} onEdit={() => setEditing(true)} />
      {readingRoom && <InBookSearchBox initial={inBookText} onSearch={(text) => setInBook(text)} />}

      {inBookText ? (
        <InBookResults
          catalogId={book.catalogId}
          text={inBookText}
          page={inBookPage}
          onPage={(page) => setInBook(inBookText, page)}
          onBack={() => setInBook('')}
          backLabel="返回目录"
          onOpen={(hit) =>
            openReader(
              readerPath({
                catalogId: book.catalogId,
                fascicleId: hit.fascicleId,
                directoryId: hit.directoryId,
                imageId: hit.imageId,
                highlight: inBookText,
              }),
            )
          }
        />
      ) : (
        <BookContents
          pending={volumes.isPending}
          volumes={list}
          selected={selected}
          onSelect={setSelectedId}
          onOpen={open}
        />
      )}

      <BookComments catalogId={book.catalogId} />

      {book.canEdit && <BookEditModal book={book} open={editing} onClose={() => setEditing(false)} />}
    </div>
  );
}

/**
 * Opens the reader at an address, or says why it cannot: a visitor is sent to sign in after the notice,
 * a closed book is refused (DESIGN.md §7).
 */
function useOpenReader(access: BookDetail['access']) {
  const navigate = useNavigate();
  const later = useDelayedAction();
  return (url: string) => {
    const outcome = openOutcome(access, url);
    switch (outcome.kind) {
      case 'read':
        void navigate(outcome.to);
        break;
      case 'login':
        toast.warning(outcome.notice);
        later(() => void navigate(outcome.to), outcome.delayMs);
        break;
      case 'refuse':
        toast.warning(outcome.notice);
        break;
    }
  };
}

/**
 * In-book search (reading room only): the text and the result page live in the address too (?q=&qpage=).
 * It answers signed-in readers only: a visitor's address with ?q= shows the book.
 */
function useInBookSearch(searchParams: URLSearchParams, setSearchParams: SetURLSearchParams) {
  const session = useSession().data;
  const readingRoom = session?.readingRoom ?? false;
  const inBookText = readingRoom && session?.user ? (searchParams.get('q') ?? '').slice(0, 50) : '';
  const inBookPage = Math.max(1, Number(searchParams.get('qpage')) || 1);
  const setInBook = (text: string, page = 1) =>
    setSearchParams((params) => {
      if (text) {
        params.set('q', text);
        params.set('qpage', String(page));
      } else {
        params.delete('q');
        params.delete('qpage');
      }
      return params;
    });
  return { readingRoom, inBookText, inBookPage, setInBook };
}

function BookHeader({ book, onEdit }: { book: BookDetail; onEdit: () => void }) {
  const fields: { label: string; value: string; keep?: boolean; wide?: boolean }[] = [
    { label: '作者', value: orNone(book.author), keep: Boolean(book.author) },
    { label: '版本', value: orNone(book.coverageDynasty), keep: Boolean(book.coverageDynasty) },
    { label: '朝代', value: orNone(book.publishDynasty), keep: Boolean(book.publishDynasty) },
    { label: '卷数', value: orNone(book.actualVolume), keep: Boolean(book.actualVolume) },
    { label: '分册数', value: orNone(book.volumeCount || null) },
    { label: '册数', value: orNone(book.bookNumber), keep: Boolean(book.bookNumber) },
    {
      label: '索书号',
      value: orNone(book.callNumber),
      keep: book.callNumber != null && book.callNumber !== '',
    },
    // The record's notes (附注, MARC 500 / CNMARC 300), as recorded.
    ...(book.notes ? [{ label: '附注', value: book.notes, keep: true, wide: true }] : []),
  ];
  return (
    <section className="book-header" aria-labelledby="book-title">
      <BookCover title={book.title} coverUrl={book.coverUrl} width={200} height={200} lazy={false} />
      <div className="book-header-body">
        <div className="book-header-title">
          <h1 id="book-title" {...noConvert}>
            {book.title}
          </h1>
          {!book.isOpen && (
            <Tag className="reading-room-tag" title="仅限阅览室内在线阅读">
              阅览室
            </Tag>
          )}
          <CollectButton catalogId={book.catalogId} />
          {book.access.reason === 'readingRoom' && book.callNumber && (
            // Closed to online reading: a reservation grants access for a while (spec §4).
            <Link
              className="ant-btn ant-btn-default"
              to={appointmentPathFor({ callNumber: book.callNumber, title: book.title })}
            >
              申请阅览
            </Link>
          )}
          {book.canEdit && (
            <Button icon={<EditOutlined aria-hidden />} onClick={onEdit}>
              编辑
            </Button>
          )}
        </div>
        <dl className="book-fields">
          {fields.map((field) => (
            <div key={field.label} className={field.wide ? 'book-field-wide' : undefined}>
              <dt>{field.label}</dt>
              <dd {...(field.keep ? noConvert : {})}>{field.value}</dd>
            </div>
          ))}
        </dl>
        <div className="book-header-links">
          {book.iiifManifestUrl && <IiifLinks url={book.iiifManifestUrl} />}
          <BookCitation book={book} />
        </div>
      </div>
    </section>
  );
}
