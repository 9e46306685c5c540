import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Segmented, Select, Spin, Tooltip } from 'antd';
import {
  DoubleLeftOutlined,
  DoubleRightOutlined,
  LeftOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  MinusOutlined,
  PlusOutlined,
  RightOutlined,
} from '@ant-design/icons';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MSG, ZOOM_LEVELS, type DirectoryNode, type ReaderData } from '@guji/shared';
import { ApiError } from '../../../api/client.ts';
import { PageLoading } from '../../../components/page-loading.tsx';
import { toast } from '../../../components/toast.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { NO_CONVERT_ATTRIBUTE } from '../../language/index.ts';
import { OpenSeadragonViewer } from '../components/openseadragon-viewer.tsx';
import { PageNumberBox } from '../components/page-number-box.tsx';
import { ReaderDirectory } from '../components/reader-directory.tsx';
import { currentEntry, entryStartPage } from '../directory.ts';
import { imageInfoQuery, useImageInfo, usePageMatches, usePageOcr, useReaderData } from '../queries.ts';
import { OcrTextPane } from '../components/ocr-text-pane.tsx';
import { useSession } from '../../account/queries.ts';
import { InBookResults, InBookSearchBox } from '../../catalog/index.ts';
import {
  DISPLAY_MODES,
  INITIAL_ZOOM,
  keyCommand,
  movePage,
  startPage,
  stepZoom,
  type DisplayMode,
  type KeyCommand,
  type PageMove,
  type ZoomByMode,
} from '../reader-navigation.ts';
import { readerRefusal, type ReaderRefusal } from '../reader-refusal.ts';
import { parseReaderParams, readerPath } from '../../../lib/reader-url.ts';
import { ReaderDownloadMenu, useFootprintReport, useReaderNotes } from '../../personal/index.ts';
import { AddToPrint } from '../../print/index.ts';

const DIRECTORY_ID = 'reader-directory';
const noConvert = { [NO_CONVERT_ATTRIBUTE]: '' };

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

/** Shows a refusal's notice once and then goes where it says (DESIGN.md §7). */
function useRefusalNotice(refusal: ReaderRefusal | null): void {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  });
  useEffect(() => {
    if (!refusal) return;
    if (refusal.tone === 'warning') toast.warning(refusal.notice);
    else toast.error(refusal.notice);
    const target = refusal.to;
    if (!target) return;
    const timer = window.setTimeout(
      () => void navigateRef.current(target, { replace: true }),
      refusal.delayMs,
    );
    return () => window.clearTimeout(timer);
  }, [refusal]);
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
  const [mode, setMode] = useState<DisplayMode>('image');
  const [zoom, setZoom] = useState<ZoomByMode>(INITIAL_ZOOM);
  const zoomPercent = zoom[mode];
  const setModeZoom = useCallback(
    (percent: number) => setZoom((old) => ({ ...old, [mode]: percent })),
    [mode],
  );
  // The image reports its zoom for the image and the side-by-side modes; hidden (text only) it is quiet.
  const setViewerZoom = useCallback(
    (percent: number) => {
      if (mode !== 'text') setZoom((old) => ({ ...old, [mode]: percent }));
    },
    [mode],
  );
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

  const changeZoom = useCallback(
    (direction: 'in' | 'out') => {
      const from = zoomPercent ?? ZOOM_LEVELS[0]!;
      setModeZoom(stepZoom(from, direction));
    },
    [zoomPercent, setModeZoom],
  );

  const commands = useRef<(command: KeyCommand) => void>(() => undefined);
  useEffect(() => {
    commands.current = (command) => {
      if (command === 'zoomIn') changeZoom('in');
      else if (command === 'zoomOut') changeZoom('out');
      else move(command);
    };
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (ownsKeys(event.target)) return;
      const command = keyCommand(event.key);
      if (!command) return;
      event.preventDefault();
      commands.current(command);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const zoomOptions = useMemo(() => ZOOM_LEVELS.map((level) => ({ value: level, label: `${level}%` })), []);
  const atFirst = pageNumber <= 1;
  const atLast = pageNumber >= total;

  return (
    <div className="reader">
      <div className="reader-toolbar" role="group" aria-label="阅读工具栏">
        <Button
          icon={directoryOpen ? <MenuFoldOutlined aria-hidden /> : <MenuUnfoldOutlined aria-hidden />}
          aria-expanded={directoryOpen}
          aria-controls={DIRECTORY_ID}
          onClick={() => setDirectoryOpen((open) => !open)}
        >
          目录
        </Button>

        {/* Right to left: the next page lies to the left, as in the book. */}
        <div className="reader-pager" role="group" aria-label="翻页">
          <Button icon={<DoubleLeftOutlined aria-hidden />} onClick={() => move('last')} disabled={atLast}>
            <span className="reader-button-text">尾页</span>
          </Button>
          <Button icon={<LeftOutlined aria-hidden />} onClick={() => move('next')} disabled={atLast}>
            <span className="reader-button-text">下一页</span>
          </Button>
          <PageNumberBox key={pageNumber} page={pageNumber} total={total} onGo={goToPage} />
          <Button onClick={() => move('previous')} disabled={atFirst}>
            <span className="reader-button-text">上一页</span>
            <RightOutlined aria-hidden />
          </Button>
          <Button onClick={() => move('first')} disabled={atFirst}>
            <span className="reader-button-text">首页</span>
            <DoubleRightOutlined aria-hidden />
          </Button>
        </div>

        <Select
          aria-label="选择分册"
          className="reader-volume-select"
          value={volume.fascicleId}
          options={volumes.map((item) => ({ value: item.fascicleId, label: item.name }))}
          onChange={(fascicleId: number) =>
            void navigate(readerPath({ catalogId: book.catalogId, fascicleId }), { replace: false })
          }
          popupMatchSelectWidth={false}
        />

        <div className="reader-zoom" role="group" aria-label="缩放">
          <Tooltip title="缩小（-）">
            <Button
              icon={<MinusOutlined aria-hidden />}
              aria-label="缩小"
              onClick={() => changeZoom('out')}
              disabled={zoomPercent != null && zoomPercent <= ZOOM_LEVELS[0]!}
            />
          </Tooltip>
          <Select<number>
            aria-label="缩放比例"
            className="reader-zoom-select"
            value={zoomPercent ?? undefined}
            placeholder="适合"
            options={zoomOptions}
            labelRender={({ value }) => `${String(value)}%`}
            onChange={setModeZoom}
          />
          <Tooltip title="放大（+）">
            <Button
              icon={<PlusOutlined aria-hidden />}
              aria-label="放大"
              onClick={() => changeZoom('in')}
              disabled={zoomPercent != null && zoomPercent >= ZOOM_LEVELS[ZOOM_LEVELS.length - 1]!}
            />
          </Tooltip>
        </div>

        {readingRoom && (
          <InBookSearchBox
            compact
            initial={searchText}
            onSearch={(text) => {
              setSearchText(text);
              setSearchPage(1);
            }}
          />
        )}

        {notes.button}
        {page && signedIn && <ReaderDownloadMenu imageId={page.imageId} fascicleId={volume.fascicleId} />}
        {page && signedIn && (
          <AddToPrint
            imageId={page.imageId}
            fascicleId={volume.fascicleId}
            pageNumber={pageNumber}
            total={total}
          />
        )}

        {canProofread && page && (
          <Link className="reader-proofread" to={`/OCRPage?imgid=${page.imageId}`}>
            校对文字
          </Link>
        )}

        <Segmented<DisplayMode>
          aria-label="显示模式"
          options={DISPLAY_MODES.map((option) => ({ value: option.value, label: option.label }))}
          value={mode}
          onChange={setMode}
        />
      </div>

      <h1 className="reader-title">
        <span>《{book.title}》</span>
        <span className="reader-title-volume">{volume.name}</span>
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

/**
 * Whether a key event belongs to the focused control (text boxes, lists, the directory tree, radio
 * groups) rather than to page turning.
 */
function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return (
    target.closest(
      'input, textarea, select, [contenteditable="true"], [role="tree"], [role="listbox"], [role="combobox"], [role="radiogroup"], [role="slider"], [role="menu"]',
    ) !== null
  );
}
