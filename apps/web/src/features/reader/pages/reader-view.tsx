import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Spin } from 'antd';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MSG, type DirectoryNode, type ReaderData, type TextHit } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { OpenSeadragonViewer } from '../components/openseadragon-viewer.tsx';
import { ReaderDirectory } from '../components/reader-directory.tsx';
import { ReaderToolbar } from '../components/reader-toolbar.tsx';
import { ReaderSidePanel, type SideTab } from '../components/reader-side-panel.tsx';
import { PageThumbnails } from '../components/page-thumbnails.tsx';
import { HitNavigator } from '../components/hit-navigator.tsx';
import { usePageCitation } from '../components/cite-button.tsx';
import { TextPane } from '../components/ocr-text-pane.tsx';
import { currentEntry, entryStartPage } from '../directory.ts';
import { useReaderKeys } from '../hooks/use-reader-keys.ts';
import { useReaderZoom } from '../hooks/use-reader-zoom.ts';
import { useHitNavigation } from '../hooks/use-hit-navigation.ts';
import { useCharacterLinks } from '../hooks/use-character-links.ts';
import { toneFilter, useImageAdjust } from '../hooks/use-image-adjust.ts';
import { useFullScreen } from '../hooks/use-full-screen.ts';
import { useCorrecting } from '../hooks/use-correcting.tsx';
import { ImageAdjustControls } from '../components/image-adjust-controls.tsx';
import { imageInfoQuery, useImageInfo, usePageMatches, usePageOcr } from '../queries.ts';
import { useSession } from '../../account/queries.ts';
import { InBookResults } from '../../catalog/index.ts';
import { movePage, startPage, type PageMove } from '../reader-navigation.ts';
import { readerPath } from '../../../lib/reader-url.ts';
import { useFootprintReport, useReaderNotes } from '../../personal/index.ts';
import { BookText, noConvert } from '../../../components/book-text.tsx';
import { keepBootPreviewFor } from '../viewer/boot-preview.ts';

const SIDE_ID = 'reader-side';

/** Wide screens open the reader with its side panel shown; phones give the page the room. */
function wideScreen(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 768px)').matches;
}

export interface ReaderViewProps {
  data: ReaderData;
  /** True while another volume loads: the toolbar stays, the pane waits. */
  loadingVolume: boolean;
  directoryId: number | null;
  imageId: number | null;
  /** Text a search found on this page, to frame on the image (reading room). */
  highlight: string | null;
}

/**
 * The reader of one volume: the toolbar, the side panel (directory, thumbnails, in-book search hits)
 * and the stage, which shows the page image, its text, or both side by side with each character linked
 * between them.
 */
export function ReaderView({ data, loadingVolume, directoryId, imageId, highlight }: ReaderViewProps) {
  const navigate = useNavigate();
  const { book, volume, volumes, directory, pages } = data;
  const total = pages.length;
  const pageNumber = startPage(pages, directory, imageId, directoryId);
  const page = pages[pageNumber - 1];
  const citation = usePageCitation({ book, volume, page });
  const current = currentEntry(directory, pageNumber);
  const info = useImageInfo(loadingVolume || !page ? null : page.iiifBase);
  const session = useSession().data;
  const readingRoom = session?.readingRoom ?? false;
  // Catalogue staff correct the recognised text on /OCRPage (the server checks again).
  const canProofread = session?.user?.roles.includes('catalogAdmin') ?? false;
  const shownImageId = page && !loadingVolume ? page.imageId : null;

  const { mode, setMode, choice, shownPercent, choose, reportShown, changeZoom, withView } = useReaderZoom();
  // index.html's early image stands for this page only while it is shown as an image.
  useEffect(() => {
    if (!loadingVolume) keepBootPreviewFor(mode === 'image' ? (page?.imageId ?? null) : null);
  }, [loadingVolume, mode, page?.imageId]);
  const [spreadChosen, setSpread] = useState(false);
  const spread = spreadChosen && mode === 'image';
  const step = spread ? 2 : 1;
  // A spread shows the next page to the left of this one.
  const leftPage = spread ? pages[pageNumber] : undefined;
  const leftInfo = useImageInfo(loadingVolume || !leftPage ? null : leftPage.iiifBase);
  // The viewer opens the fetched info.json; if that failed, its URL, so the viewer reports the failure.
  const tileSource =
    loadingVolume || !page ? null : (info.data ?? (info.isError ? `${page.iiifBase}/info.json` : null));
  const spreadSource = leftPage ? (leftInfo.data ?? null) : null;
  // The pages either side are the next to be turned to: know their info.json before that.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (loadingVolume || !info.data) return;
    for (const near of [
      pages[pageNumber - 1 + step],
      pages[pageNumber - 1 - step],
      pages[pageNumber + step],
    ]) {
      if (near) void queryClient.prefetchQuery(imageInfoQuery(near.iiifBase));
    }
  }, [queryClient, loadingVolume, info.data, pages, pageNumber, step]);

  const [sideOpen, setSideOpen] = useState(wideScreen);
  const image = useImageAdjust();
  const readerRef = useRef<HTMLDivElement>(null);
  const fullScreen = useFullScreen(readerRef);
  const [sideTab, setSideTab] = useState<SideTab>('directory');
  const pageOcr = usePageOcr(mode !== 'image' && shownImageId != null ? shownImageId : null);
  const ocr = pageOcr.data?.ocr ?? null;
  // The reader's own notes, downloads and footprint (a reader is always signed in: the server's rule).
  const signedIn = Boolean(session?.user);
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
        withView(
          readerPath({
            catalogId: book.catalogId,
            fascicleId: volume.fascicleId,
            directoryId: entryId ?? currentEntry(directory, target)?.directoryId ?? null,
            imageId: next.imageId,
          }),
        ),
        { replace: false },
      );
    },
    [pages, loadingVolume, navigate, withView, book.catalogId, volume.fascicleId, directory],
  );
  const move = useCallback(
    (how: PageMove) => goToPage(movePage(how, pageRef.current, total, step)),
    [goToPage, total, step],
  );
  /** On a phone the side panel covers the page: get it out of the way once something is chosen there. */
  const closeSideOnPhone = () => {
    if (!wideScreen()) setSideOpen(false);
  };
  const openEntry = (entry: DirectoryNode) => {
    const start = entryStartPage(entry);
    if (start != null) goToPage(start, entry.directoryId);
    closeSideOnPhone();
  };

  // In-book search (reading room only): the hits in the side panel, each occurrence framed in turn.
  const [searchText, setSearchText] = useState('');
  const openHit = useCallback(
    (hit: TextHit) =>
      void navigate(
        withView(
          readerPath({
            catalogId: book.catalogId,
            fascicleId: hit.fascicleId,
            directoryId: hit.directoryId,
            imageId: hit.imageId,
            highlight: searchText,
          }),
        ),
      ),
    [navigate, withView, book.catalogId, searchText],
  );
  const matches = usePageMatches(shownImageId, highlight);
  const hitNav = useHitNavigation(book.catalogId, searchText, shownImageId, matches.data?.matches, openHit);
  const highlights = useMemo(() => matches.data?.matches.flat() ?? [], [matches.data]);
  // Characters are chosen wherever the text is shown (linked with the image side by side; 纠错 in both).
  const links = useCharacterLinks(mode !== 'image' ? ocr : null, shownImageId);
  const correcting = useCorrecting(mode !== 'image' ? ocr : null, shownImageId, links.linked, signedIn);

  useReaderKeys((command) => {
    if (command === 'zoomIn') changeZoom('in');
    else if (command === 'zoomOut') changeZoom('out');
    else move(command);
  });

  const sidePanels = {
    directory: (
      <ReaderDirectory
        id={`${SIDE_ID}-directory`}
        directory={directory}
        currentId={current?.directoryId ?? null}
        onOpen={openEntry}
      />
    ),
    thumbnails: (
      <PageThumbnails
        pages={pages}
        current={pageNumber}
        onOpen={(target) => {
          goToPage(target);
          closeSideOnPhone();
        }}
      />
    ),
    ...(readingRoom && searchText
      ? {
          search: (
            <InBookResults
              catalogId={book.catalogId}
              text={searchText}
              page={hitNav.resultPage}
              onPage={hitNav.setResultPage}
              onBack={() => {
                setSearchText('');
                setSideTab('directory');
              }}
              backLabel="关闭"
              onOpen={(hit) => {
                hitNav.open(hit);
                closeSideOnPhone();
              }}
            />
          ),
        }
      : {}),
  };

  return (
    <div className="reader" data-mode={mode} ref={readerRef}>
      <ReaderToolbar
        book={data.book}
        sidePanelId={SIDE_ID}
        sideOpen={sideOpen}
        onToggleSide={() => setSideOpen((open) => !open)}
        pageNumber={pageNumber}
        total={total}
        onGoToPage={goToPage}
        onMove={move}
        volume={volume}
        volumes={volumes}
        onVolumeChange={(fascicleId) =>
          void navigate(withView(readerPath({ catalogId: book.catalogId, fascicleId })), { replace: false })
        }
        zoom={choice}
        shownPercent={shownPercent}
        onZoomStep={changeZoom}
        onZoomChoose={choose}
        spread={spread}
        onSpreadChange={setSpread}
        readingRoom={readingRoom}
        searchText={searchText}
        onSearch={(text) => {
          setSearchText(text);
          setSideTab('search');
          setSideOpen(true);
        }}
        notesButton={notes.button}
        imageTools={
          <ImageAdjustControls
            adjust={image.adjust}
            onRotate={image.rotate}
            onTone={image.setTone}
            onReset={image.reset}
            fullScreen={fullScreen}
          />
        }
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
        {sideOpen && <ReaderSidePanel id={SIDE_ID} tab={sideTab} onTab={setSideTab} panels={sidePanels} />}
        <div className="reader-stage" data-hits={Boolean(readingRoom && searchText && highlight)}>
          {page ? (
            <div className="reader-panes" data-mode={mode}>
              {mode !== 'image' && (
                <TextPane
                  ocr={ocr}
                  loading={pageOcr.isPending}
                  zoomPercent={mode === 'text' && typeof choice === 'number' ? choice : null}
                  onZoomChange={(percent) => (mode === 'text' ? choose(percent) : undefined)}
                  label={`第 ${pageNumber} 页文字`}
                  hitBoxes={highlights}
                  linked={links.linked}
                  onLink={links.setLinked}
                  onSelect={links.setSelected}
                  citation={citation}
                  onCorrect={correcting.onCorrect}
                />
              )}
              <div
                className="reader-image"
                hidden={mode === 'text'}
                style={{ filter: toneFilter(image.adjust) }}
              >
                <OpenSeadragonViewer
                  // Side by side is a viewer of its own: it opens fitted to its half and keeps its zoom.
                  key={mode === 'both' ? 'both' : 'image'}
                  tileSource={tileSource}
                  spreadSource={spreadSource}
                  zoom={mode === 'text' ? 'fit' : choice}
                  rotation={image.adjust.rotation}
                  onZoomShown={(percent) => (mode === 'text' ? undefined : reportShown(percent))}
                  onUserZoom={(percent) => (mode === 'text' ? undefined : choose(percent))}
                  highlights={highlights}
                  focusBoxes={hitNav.focusBoxes}
                  linkBox={links.linkBox}
                  selectedBoxes={links.selectedBoxes}
                  onPointImage={mode === 'both' ? links.pointAt : undefined}
                  onSwipe={move}
                  notes={notes.notes}
                  onNoteOpen={notes.open}
                  drawing={notes.drawing}
                  onDraw={notes.onDraw}
                  onOpenFailed={() => toast.error(MSG.serverException)}
                  label={
                    spread && leftPage
                      ? `第 ${pageNumber}、${pageNumber + 1} 页图像`
                      : `第 ${pageNumber} 页图像`
                  }
                />
              </div>
            </div>
          ) : (
            <p className="reader-empty" role="status">
              {MSG.noData}
            </p>
          )}
          {readingRoom && searchText && highlight && (
            <HitNavigator
              occurrence={hitNav.occurrence + 1}
              occurrences={matches.data?.matches.length ?? 0}
              onNext={hitNav.next}
              onPrevious={hitNav.previous}
            />
          )}
          {notes.modal}
          {correcting.dialog}
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
