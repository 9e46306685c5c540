/** The reader's stage: the page image, its text, or both side by side, with what lies over them. */
import { Spin } from 'antd';
import { MSG } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { HitNavigator } from '../components/hit-navigator.tsx';
import { TextPane } from '../components/ocr-text-pane.tsx';
import { OpenSeadragonViewer } from '../components/openseadragon-viewer.tsx';
import { toneFilter } from '../hooks/use-image-adjust.ts';
import type { ReaderState } from '../hooks/use-reader-state.ts';

/**
 * The panes of the page shown (or word that the volume has none), the stepping through a search's
 * occurrences on the page, the notes' and corrections' dialogs, and the wait while a volume loads.
 */
export function ReaderStage({ reader }: { reader: ReaderState }) {
  const { readingRoom } = reader.access;
  const { searchText, matches, hitNav } = reader.search;
  const { highlight } = reader;
  return (
    <div className="reader-stage" data-hits={Boolean(readingRoom && searchText && highlight)}>
      {reader.place.page ? (
        <ReaderPanes reader={reader} />
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
      {reader.notes.modal}
      {reader.correcting.dialog}
      {reader.loadingVolume && (
        <div className="reader-stage-loading">
          <Spin description="正在加载…" />
        </div>
      )}
    </div>
  );
}

/** The text pane (text and side-by-side modes) and the image pane (hidden in text mode). */
function ReaderPanes({ reader }: { reader: ReaderState }) {
  const { mode, choice, choose } = reader.zoom;
  const { pageNumber } = reader.place;
  return (
    <div className="reader-panes" data-mode={mode}>
      {mode !== 'image' && (
        <TextPane
          ocr={reader.ocr}
          loading={reader.pageOcr.isPending}
          zoomPercent={mode === 'text' && typeof choice === 'number' ? choice : null}
          onZoomChange={(percent) => (mode === 'text' ? choose(percent) : undefined)}
          label={`第 ${pageNumber} 页文字`}
          hitBoxes={reader.search.highlights}
          linked={reader.links.linked}
          onLink={reader.links.setLinked}
          onSelect={reader.links.setSelected}
          citation={reader.citation}
          onCorrect={reader.correcting.onCorrect}
        />
      )}
      <div
        className="reader-image"
        hidden={mode === 'text'}
        style={{ filter: toneFilter(reader.image.adjust) }}
      >
        <ImagePane reader={reader} />
      </div>
    </div>
  );
}

/** The page image (or spread) in its viewer, with the search hits, linked characters and notes over it. */
function ImagePane({ reader }: { reader: ReaderState }) {
  const { mode, choice, choose, reportShown } = reader.zoom;
  const { pageNumber } = reader.place;
  const { links, notes, images } = reader;
  return (
    <OpenSeadragonViewer
      // Side by side is a viewer of its own: it opens fitted to its half and keeps its zoom.
      key={mode === 'both' ? 'both' : 'image'}
      tileSource={images.tileSource}
      spreadSource={images.spreadSource}
      zoom={mode === 'text' ? 'fit' : choice}
      rotation={reader.image.adjust.rotation}
      onZoomShown={(percent) => (mode === 'text' ? undefined : reportShown(percent))}
      onUserZoom={(percent) => (mode === 'text' ? undefined : choose(percent))}
      highlights={reader.search.highlights}
      focusBoxes={reader.search.hitNav.focusBoxes}
      linkBox={links.linkBox}
      selectedBoxes={links.selectedBoxes}
      onPointImage={mode === 'both' ? links.pointAt : undefined}
      onSwipe={reader.turns.move}
      notes={notes.notes}
      onNoteOpen={notes.open}
      drawing={notes.drawing}
      onDraw={notes.onDraw}
      onOpenFailed={() => toast.error(MSG.serverException)}
      label={
        images.spread && images.leftPage
          ? `第 ${pageNumber}、${pageNumber + 1} 页图像`
          : `第 ${pageNumber} 页图像`
      }
    />
  );
}
