import type { OcrPoints } from '@guji/shared';
import type { PageMove, ZoomChoice } from '../reader-navigation.ts';
import type { ViewerNote } from '../viewer/notes.ts';
import { useOpenSeadragon, useViewerOverlays, useViewerView } from '../hooks/use-openseadragon.ts';

export type { ViewerNote } from '../viewer/notes.ts';

/** A page to open: its IIIF info.json (as fetched) or the URL of it. */
export type TileSource = string | Record<string, unknown>;

export interface OpenSeadragonViewerProps {
  /**
   * The page to show: its IIIF info.json (as fetched) or the URL of it; null keeps the current page
   * (while the next loads).
   */
  tileSource: TileSource | null;
  /** A spread: the page shown to the left of it (the next page of a right-to-left book). */
  spreadSource?: TileSource | null;
  /** `fit`: the whole page (or spread) in the pane, centred; a number: percent of the image's own size. */
  zoom: ZoomChoice;
  /** Clockwise rotation of the page in degrees (0, 90, 180, 270); overlays turn with it. */
  rotation?: number;
  /** What the pane shows now, in whole percent, after opening, fitting, resizing or a gesture. */
  onZoomShown: (percent: number) => void;
  /** The reader zoomed with the wheel, a pinch or a double click: the percentage reached. */
  onUserZoom: (percent: number) => void;
  /** Reports a page that could not be opened. */
  onOpenFailed?: () => void;
  /** The accessible name of the pane, e.g. 第 3 页. */
  label: string;
  /** Boxes to frame on the page, in image pixels (the characters a search found). */
  highlights?: readonly OcrPoints[];
  /** The occurrence being visited: framed more strongly and brought into view. */
  focusBoxes?: readonly OcrPoints[];
  /** The character linked from the text pane (hovered or tapped there). */
  linkBox?: OcrPoints | null;
  /** The characters selected in the text pane, outlined. */
  selectedBoxes?: readonly OcrPoints[];
  /** The point of the page under the pointer (or tapped), in image pixels; null when it leaves. */
  onPointImage?: (point: { x: number; y: number } | null) => void;
  /** A swipe on a touch screen while the page is fitted. */
  onSwipe?: (move: Extract<PageMove, 'next' | 'previous'>) => void;
  /** The reader's notes on this page, as rectangles in image pixels; a click opens one. */
  notes?: readonly ViewerNote[];
  onNoteOpen?: (id: number) => void;
  /** While true, dragging draws a rectangle (panning is off) and `onDraw` receives it. */
  drawing?: boolean;
  onDraw?: (rect: { x: number; y: number; w: number; h: number }) => void;
}

/**
 * The image pane: one OpenSeadragon viewer owned through a ref (in the manner of Mirador's
 * OpenSeadragonViewer). Props drive it: a new tile source opens that page, a new zoom choice fits the
 * page or animates to the percentage; the viewer reports what it shows once a gesture or animation
 * ends. Mouse wheel and pinch zoom continuously, dragging pans, a swipe on a fitted page turns it; the
 * context menu is disabled. Keys are the reader's (its arrows turn pages), so the viewer's own keyboard
 * navigation is off.
 */
export function OpenSeadragonViewer(props: OpenSeadragonViewerProps) {
  const { tileSource, spreadSource = null, zoom, label, highlights, drawing = false } = props;
  const { containerRef, viewerRef, latest, drawn, page } = useOpenSeadragon(props);
  const rotation = props.rotation ?? 0;
  useViewerView(viewerRef, latest, page, { tileSource, spreadSource, zoom, rotation });
  useViewerOverlays(viewerRef, latest, page, {
    highlights,
    focusBoxes: props.focusBoxes,
    linkBox: props.linkBox,
    selectedBoxes: props.selectedBoxes,
    notes: props.notes,
    drawing,
  });

  return (
    <div
      className="osd-pane"
      role="region"
      aria-label={label}
      data-drawn={drawn}
      data-highlights={highlights?.length ?? 0}
      data-drawing={drawing}
      data-spread={spreadSource != null}
      data-rotation={rotation}
      onContextMenu={(event) => event.preventDefault()}
    >
      <div ref={containerRef} className="osd-container" />
    </div>
  );
}
