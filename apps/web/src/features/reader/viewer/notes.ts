import OpenSeadragon from 'openseadragon';
import { NO_CONVERT_ATTRIBUTE } from '../../language/index.ts';

export interface ViewerNote {
  id: number;
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
}

/** Lays the reader's notes over the page as buttons (click or Enter opens one); returns their removal. */
export function addNoteOverlays(
  viewer: OpenSeadragon.Viewer,
  item: OpenSeadragon.TiledImage,
  notes: readonly ViewerNote[],
  onOpen: (id: number) => void,
): () => void {
  const trackers: OpenSeadragon.MouseTracker[] = [];
  const elements: HTMLElement[] = [];
  for (const note of notes) {
    const element = document.createElement('button');
    element.type = 'button';
    element.className = 'osd-note';
    element.setAttribute('aria-label', `批注：${note.text.slice(0, 40)}`);
    element.title = note.text;
    // The note as the reader wrote it: the 简/繁 toggle leaves it alone (issue 32).
    element.setAttribute(NO_CONVERT_ATTRIBUTE, '');
    // OpenSeadragon takes the pointer events over its canvas; a tracker hands the click to the reader.
    trackers.push(new OpenSeadragon.MouseTracker({ element, clickHandler: () => onOpen(note.id) }));
    element.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onOpen(note.id);
      }
    });
    viewer.addOverlay({ element, location: item.imageToViewportRectangle(note.x, note.y, note.w, note.h) });
    elements.push(element);
  }
  return () => {
    for (const tracker of trackers) tracker.destroy();
    for (const element of elements) viewer.removeOverlay(element);
  };
}

/**
 * Drawing a note's rectangle: panning off, a drag draws, the release reports it in the page's image
 * pixels (clipped to the page). Returns the function that ends drawing.
 */
export function startNoteDrawing(
  viewer: OpenSeadragon.Viewer,
  item: OpenSeadragon.TiledImage,
  onDraw: (rect: { x: number; y: number; w: number; h: number }) => void,
): () => void {
  viewer.setMouseNavEnabled(false);
  const draft = document.createElement('div');
  draft.className = 'osd-note-draft';
  let start: OpenSeadragon.Point | null = null;
  const toImage = (position: OpenSeadragon.Point) => item.viewerElementToImageCoordinates(position);
  const rectOf = (a: OpenSeadragon.Point, b: OpenSeadragon.Point) => {
    const size = item.getContentSize();
    const x0 = Math.max(0, Math.min(a.x, b.x));
    const y0 = Math.max(0, Math.min(a.y, b.y));
    const x1 = Math.min(size.x, Math.max(a.x, b.x));
    const y1 = Math.min(size.y, Math.max(a.y, b.y));
    return { x: Math.round(x0), y: Math.round(y0), w: Math.round(x1 - x0), h: Math.round(y1 - y0) };
  };
  const tracker = new OpenSeadragon.MouseTracker({
    element: viewer.canvas,
    pressHandler: (event) => {
      start = toImage(event.position);
    },
    dragHandler: (event) => {
      if (!start) return;
      const rect = rectOf(start, toImage(event.position));
      const location = item.imageToViewportRectangle(rect.x, rect.y, rect.w, rect.h);
      if (viewer.getOverlayById(draft)) viewer.updateOverlay(draft, location);
      else viewer.addOverlay({ element: draft, location });
    },
    releaseHandler: (event) => {
      if (!start) return;
      const rect = rectOf(start, toImage(event.position));
      start = null;
      viewer.removeOverlay(draft);
      if (rect.w >= 4 && rect.h >= 4) onDraw(rect);
    },
  });
  return () => {
    tracker.destroy();
    viewer.removeOverlay(draft);
    viewer.setMouseNavEnabled(true);
  };
}
