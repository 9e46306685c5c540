import type { DirectoryNode } from '@guji/shared';
import { ReaderDirectory } from '../components/reader-directory.tsx';
import { ReaderToolbar } from '../components/reader-toolbar.tsx';
import { ReaderSidePanel } from '../components/reader-side-panel.tsx';
import { PageThumbnails } from '../components/page-thumbnails.tsx';
import { ImageAdjustControls } from '../components/image-adjust-controls.tsx';
import { entryStartPage } from '../directory.ts';
import { useReaderState, type ReaderState, type ReaderStateOptions } from '../hooks/use-reader-state.ts';
import { InBookResults } from '../../catalog/index.ts';
import { BookText, noConvert } from '../../../components/book-text.tsx';
import { ReaderStage } from './reader-stage.tsx';

const SIDE_ID = 'reader-side';

export type ReaderViewProps = ReaderStateOptions;

/**
 * The reader of one volume: the toolbar, the side panel (directory, thumbnails, in-book search hits)
 * and the stage, which shows the page image, its text, or both side by side with each character linked
 * between them.
 */
export function ReaderView(props: ReaderViewProps) {
  const reader = useReaderState(props);
  const { book, volume } = props.data;
  return (
    <div className="reader" data-mode={reader.zoom.mode} ref={reader.readerRef}>
      <ReaderViewToolbar reader={reader} />

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
        {reader.side.open && <ReaderSide reader={reader} />}
        <ReaderStage reader={reader} />
      </div>
    </div>
  );
}

/** The toolbar, wired to the reader: page turning, volume, zoom, spread, search, image tools, mode. */
function ReaderViewToolbar({ reader }: { reader: ReaderState }) {
  const { data, place, zoom, images, side, search, image, access, turns } = reader;
  return (
    <ReaderToolbar
      book={data.book}
      sidePanelId={SIDE_ID}
      sideOpen={side.open}
      onToggleSide={() => side.setOpen((open) => !open)}
      pageNumber={place.pageNumber}
      total={place.total}
      onGoToPage={turns.goToPage}
      onMove={turns.move}
      volume={data.volume}
      volumes={data.volumes}
      onVolumeChange={turns.openVolume}
      zoom={zoom.choice}
      shownPercent={zoom.shownPercent}
      onZoomStep={zoom.changeZoom}
      onZoomChoose={zoom.choose}
      spread={images.spread}
      onSpreadChange={images.setSpread}
      readingRoom={access.readingRoom}
      searchText={search.searchText}
      onSearch={(text) => {
        search.setSearchText(text);
        side.setTab('search');
        side.setOpen(true);
      }}
      notesButton={reader.notes.button}
      imageTools={
        <ImageAdjustControls
          adjust={image.adjust}
          onRotate={image.rotate}
          onTone={image.setTone}
          onReset={image.reset}
          fullScreen={reader.fullScreen}
        />
      }
      page={place.page}
      signedIn={access.signedIn}
      canProofread={access.canProofread}
      mode={zoom.mode}
      onModeChange={zoom.setMode}
    />
  );
}

/** The side panel's tabs: the volume's directory, its thumbnails, and an in-book search's hits. */
function ReaderSide({ reader }: { reader: ReaderState }) {
  const { data, place, side, search, turns } = reader;
  const openEntry = (entry: DirectoryNode) => {
    const start = entryStartPage(entry);
    if (start != null) turns.goToPage(start, entry.directoryId);
    side.closeOnPhone();
  };
  const panels = {
    directory: (
      <ReaderDirectory
        id={`${SIDE_ID}-directory`}
        directory={data.directory}
        currentId={place.current?.directoryId ?? null}
        onOpen={openEntry}
      />
    ),
    thumbnails: (
      <PageThumbnails
        pages={data.pages}
        current={place.pageNumber}
        onOpen={(target) => {
          turns.goToPage(target);
          side.closeOnPhone();
        }}
      />
    ),
    ...(reader.access.readingRoom && search.searchText
      ? {
          search: (
            <InBookResults
              catalogId={data.book.catalogId}
              text={search.searchText}
              page={search.hitNav.resultPage}
              onPage={search.hitNav.setResultPage}
              onBack={() => {
                search.setSearchText('');
                side.setTab('directory');
              }}
              backLabel="关闭"
              onOpen={(hit) => {
                search.hitNav.open(hit);
                side.closeOnPhone();
              }}
            />
          ),
        }
      : {}),
  };
  return <ReaderSidePanel id={SIDE_ID} tab={side.tab} onTab={side.setTab} panels={panels} />;
}
