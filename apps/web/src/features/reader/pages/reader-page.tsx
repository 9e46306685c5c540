import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Spin } from 'antd';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MSG, type DirectoryNode, type ReaderData } from '@guji/shared';
import { ApiError } from '../../../api/client.ts';
import { PageLoading } from '../../../components/page-loading.tsx';
import { toast } from '../../../components/toast.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { OpenSeadragonViewer } from '../components/openseadragon-viewer.tsx';
import { ReaderDirectory } from '../components/reader-directory.tsx';
import { ReaderToolbar } from '../components/reader-toolbar.tsx';
import { currentEntry, entryStartPage } from '../directory.ts';
import { useReaderKeys } from '../hooks/use-reader-keys.ts';
import { useReaderZoom } from '../hooks/use-reader-zoom.ts';
import { useRefusalNotice } from '../hooks/use-refusal-notice.ts';
import { imageInfoQuery, useImageInfo, usePageMatches, usePageOcr, useReaderData } from '../queries.ts';
import { OcrTextPane } from '../components/ocr-text-pane.tsx';
import { useSession } from '../../account/queries.ts';
import { InBookResults } from '../../catalog/index.ts';
import { movePage, startPage, type PageMove } from '../reader-navigation.ts';
import { readerRefusal } from '../reader-refusal.ts';
import { parseReaderParams, readerPath } from '../../../lib/reader-url.ts';
import { useFootprintReport, useReaderNotes } from '../../personal/index.ts';
import { BookText, noConvert } from '../../../components/book-text.tsx';

const DIRECTORY_ID = 'reader-directory';

/** Wide screens open the reader with its directory shown; phones give the page the room. */
function wideScreen(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 768px)').matches;
}

/**
 * /Book?catalogId&fascicleId&directoryId&imageId: the reader (spec §2). One call (GET /api/reader)
 * brings the volume; the address names the page, so reload, back and sharing keep it. Access is the
 * server's: its refusals become the notices and redirects of DESIGN.md §7.
 */
export function ReaderPage() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const { catalogId, fascicleId, directoryId, imageId, highlight } = parseReaderParams(searchParams);
  const query = useReaderData(catalogId, fascicleId);

  // Data of another book kept while this one loads is never shown.
  const data = query.data && query.data.book.catalogId === catalogId ? query.data : undefined;
  useDocumentTitle(data ? `${data.book.title} ${data.volume.name}` : '阅读');

  const here = location.pathname + location.search;
  const hereRef = useRef(here);
  useEffect(() => {
    hereRef.current = here;
  });
  const error = query.error;
  const refusal = useMemo(() => {
    if (catalogId == null) return readerRefusal(404, 'NO_DATA', MSG.noData, hereRef.current);
    if (!error) return null;
    const status = error instanceof ApiError ? error.status : 0;
    const code = error instanceof ApiError ? error.code : 'NETWORK';
    return readerRefusal(status, code, error.message, hereRef.current);
  }, [catalogId, error]);
  useRefusalNotice(refusal);

  if (refusal && !data) {
    return (
      <div className="page-narrow reader-refused" role="status">
        <p>{refusal.notice}</p>
        {refusal.to === null && catalogId != null && (
          <Button type="primary" onClick={() => void query.refetch()} loading={query.isFetching}>
            重试
          </Button>
        )}
        <Link to="/" className="reader-refused-home">
          返回首页
        </Link>
      </div>
    );
  }
  if (!data) return <PageLoading />;
  return (
    <ReaderView
      data={data}
      loadingVolume={query.isPlaceholderData || (fascicleId != null && data.volume.fascicleId !== fascicleId)}
      directoryId={directoryId}
      highlight={highlight}
      imageId={imageId}
    />
  );
}

interface ReaderViewProps {
  data: ReaderData;
  /** True while another volume loads: the toolbar stays, the pane waits. */
  loadingVolume: boolean;
  directoryId: number | null;
  imageId: number | null;
  /** Text a search found on this page, to frame on the image (reading room). */
  highlight: string | null;
}

function ReaderView({ data, loadingVolume, directoryId, imageId, highlight }: ReaderViewProps) {
  const navigate = useNavigate();
  const { book, volume, volumes, directory, pages } = data;
  const total = pages.length;
  const pageNumber = startPage(pages, directory, imageId, directoryId);
  const page = pages[pageNumber - 1];
  const current = currentEntry(directory, pageNumber);
  const info = useImageInfo(loadingVolume || !page ? null : page.iiifBase);
  // In-book search (reading room only): the box in the toolbar, the hits in a panel over the page.
  const session = useSession().data;
  const readingRoom = session?.readingRoom ?? false;
  // Catalogue staff correct the recognised text on /OCRPage (the server checks again).
  const canProofread = session?.user?.roles.includes('catalogAdmin') ?? false;
  const [searchText, setSearchText] = useState('');
  const [searchPage, setSearchPage] = useState(1);
  const matches = usePageMatches(page && !loadingVolume ? page.imageId : null, highlight);
  const highlights = useMemo(() => matches.data?.matches.flat() ?? [], [matches.data]);
  // The viewer opens the fetched info.json; if that failed, its URL, so the viewer reports the failure.
  const tileSource =
    loadingVolume || !page ? null : (info.data ?? (info.isError ? `${page.iiifBase}/info.json` : null));
  // The pages either side are the next to be turned to: know their info.json before that.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (loadingVolume || !info.data) return;
    for (const near of [pages[pageNumber], pages[pageNumber - 2]]) {
      if (near) void queryClient.prefetchQuery(imageInfoQuery(near.iiifBase));
    }
  }, [queryClient, loadingVolume, info.data, pages, pageNumber]);

  const [directoryOpen, setDirectoryOpen] = useState(wideScreen);
  const { mode, setMode, zoom, zoomPercent, setModeZoom, setViewerZoom, changeZoom } = useReaderZoom();
  const pageOcr = usePageOcr(mode !== 'image' && page && !loadingVolume ? page.imageId : null);
  // The reader's own notes, downloads and footprint (a reader is always signed in: the server's rule).
  const signedIn = Boolean(session?.user);
  const shownImageId = page && !loadingVolume ? page.imageId : null;
  const notes = useReaderNotes(shownImageId, signedIn);
  useFootprintReport(shownImageId, signedIn);

  // The page shown or already asked for: keys pressed before the next render turn from there.
  const pageRef = useRef(pageNumber);
  useEffect(() => {
    pageRef.current = pageNumber;
  }, [pageNumber]);

  /** Goes to a page of this volume; each turn is a history entry, so Back returns to the last page. */
  const goToPage = useCallback(
    (target: number, entryId?: number) => {
      const next = pages[target - 1];
      if (!next || loadingVolume) return;
      if (target === pageRef.current && entryId === undefined) return;
      pageRef.current = target;
      void navigate(
        readerPath({
          catalogId: book.catalogId,
          fascicleId: volume.fascicleId,
          directoryId: entryId ?? currentEntry(directory, target)?.directoryId ?? null,
          imageId: next.imageId,
        }),
        { replace: false },
      );
    },
    [pages, loadingVolume, navigate, book.catalogId, volume.fascicleId, directory],
  );

  const move = useCallback(
    (how: PageMove) => goToPage(movePage(how, pageRef.current, total)),
    [goToPage, total],
  );

  const openEntry = (entry: DirectoryNode) => {
    const start = entryStartPage(entry);
    if (start != null) goToPage(start, entry.directoryId);
    // On a phone the directory covers the page: get it out of the way once an entry is chosen.
    if (!wideScreen()) setDirectoryOpen(false);
  };

  useReaderKeys((command) => {
    if (command === 'zoomIn') changeZoom('in');
    else if (command === 'zoomOut') changeZoom('out');
    else move(command);
  });

  return (
    <div className="reader">
      <ReaderToolbar
        book={data.book}
        directoryPanelId={DIRECTORY_ID}
        directoryOpen={directoryOpen}
        onToggleDirectory={() => setDirectoryOpen((open) => !open)}
        pageNumber={pageNumber}
        total={total}
        onGoToPage={goToPage}
        onMove={move}
        volume={volume}
        volumes={volumes}
        onVolumeChange={(fascicleId) =>
          void navigate(readerPath({ catalogId: book.catalogId, fascicleId }), { replace: false })
        }
        zoomPercent={zoomPercent}
        onZoomStep={changeZoom}
        onZoomChange={setModeZoom}
        readingRoom={readingRoom}
        searchText={searchText}
        onSearch={(text) => {
          setSearchText(text);
          setSearchPage(1);
        }}
        notesButton={notes.button}
        page={page}
        signedIn={signedIn}
        canProofread={canProofread}
        mode={mode}
        onModeChange={setMode}
      />

      <h1 className="reader-title">
        <span>
          《<BookText>{book.title}</BookText>》
        </span>
        <BookText className="reader-title-volume">{volume.name}</BookText>
        {book.callNumber && (
          <span className="reader-title-call" {...noConvert}>
            {book.callNumber}
          </span>
        )}
      </h1>

      <div className="reader-body">
        {directoryOpen && (
          <ReaderDirectory
            id={DIRECTORY_ID}
            directory={directory}
            currentId={current?.directoryId ?? null}
            onOpen={openEntry}
          />
        )}
        <div className="reader-stage">
          {page ? (
            <div className="reader-panes" data-mode={mode}>
              {mode !== 'image' && (
                <OcrTextPane
                  ocr={pageOcr.data?.ocr ?? null}
                  loading={pageOcr.isPending}
                  zoomPercent={zoomPercent}
                  onZoomChange={setModeZoom}
                  label={`第 ${pageNumber} 页文字`}
                />
              )}
              <div className="reader-image" hidden={mode === 'text'}>
                <OpenSeadragonViewer
                  // Side by side is a viewer of its own: it opens fitted to its half and keeps its zoom.
                  key={mode === 'both' ? 'both' : 'image'}
                  tileSource={tileSource}
                  highlights={highlights}
                  notes={notes.notes}
                  onNoteOpen={notes.open}
                  drawing={notes.drawing}
                  onDraw={notes.onDraw}
                  zoomPercent={mode === 'both' ? zoom.both : zoom.image}
                  onZoomChange={setViewerZoom}
                  onOpenFailed={() => toast.error(MSG.serverException)}
                  label={`第 ${pageNumber} 页图像`}
                />
              </div>
            </div>
          ) : (
            <p className="reader-empty" role="status">
              {MSG.noData}
            </p>
          )}
          {readingRoom && searchText && (
            <div className="reader-search-panel">
              <InBookResults
                catalogId={book.catalogId}
                text={searchText}
                page={searchPage}
                onPage={setSearchPage}
                onBack={() => setSearchText('')}
                backLabel="关闭"
                onOpen={(hit) =>
                  void navigate(
                    readerPath({
                      catalogId: book.catalogId,
                      fascicleId: hit.fascicleId,
                      directoryId: hit.directoryId,
                      imageId: hit.imageId,
                      highlight: searchText,
                    }),
                  )
                }
              />
            </div>
          )}
          {notes.modal}
          {loadingVolume && (
            <div className="reader-stage-loading">
              <Spin description="正在加载…" />
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
