import { useEffect, useRef, useState } from 'react';
import OpenSeadragon from 'openseadragon';
import { ZOOM_LEVELS, fittingZoom, type OcrPoints } from '@guji/shared';
import { clampZoom } from '../reader-navigation.ts';

/** Runtime fields of OpenSeadragon's viewport that its type declarations leave out. */
interface ZoomLimits {
  minZoomLevel: number | null;
  maxZoomLevel: number | null;
}

const MIN_ZOOM = ZOOM_LEVELS[0]! / 100;
const MAX_ZOOM = ZOOM_LEVELS[ZOOM_LEVELS.length - 1]! / 100;

export interface OpenSeadragonViewerProps {
  /**
   * The page to show: its IIIF info.json (as fetched) or the URL of it; null keeps the current page
   * (while the next loads).
   */
  tileSource: string | Record<string, unknown> | null;
  /** The zoom in percent of the image's own size; null fits the page into the pane when it opens. */
  zoomPercent: number | null;
  /** Reports the zoom after the viewer settles (wheel, pinch, fitting), rounded to whole percent. */
  onZoomChange: (percent: number) => void;
  /** Reports a page that could not be opened. */
  onOpenFailed?: () => void;
  /** The accessible name of the pane, e.g. 第 3 页. */
  label: string;
  /** Boxes to frame on the page, in image pixels (the characters a search found). */
  highlights?: readonly OcrPoints[];
  /** The reader's notes on this page, as rectangles in image pixels; a click opens one. */
  notes?: readonly ViewerNote[];
  onNoteOpen?: (id: number) => void;
  /** While true, dragging draws a rectangle (panning is off) and `onDraw` receives it. */
  drawing?: boolean;
  onDraw?: (rect: { x: number; y: number; w: number; h: number }) => void;
}

export interface ViewerNote {
  id: number;
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
}

/**
 * The image pane: one OpenSeadragon viewer owned through a ref (in the manner of Mirador's
 * OpenSeadragonViewer). Props drive it: a new tile source opens that page, a new zoom animates to it;
 * the viewer reports the zoom upward once a gesture or animation ends. Mouse wheel zooms and dragging
 * pans; the context menu is disabled. Keys are the reader's (its arrows turn pages), so the viewer's own
 * keyboard navigation is off.
 */
export function OpenSeadragonViewer({
  tileSource,
  zoomPercent,
  onZoomChange,
  onOpenFailed,
  label,
  highlights,
  notes,
  onNoteOpen,
  drawing = false,
  onDraw,
}: OpenSeadragonViewerProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<OpenSeadragon.Viewer | null>(null);
  const [drawn, setDrawn] = useState(false);
  /** Counts pages opened, so overlays are laid on the page they belong to. */
  const [opened, setOpened] = useState(0);
  // The latest props, for the viewer's event handlers, which are bound once.
  const zoomRef = useRef(zoomPercent);
  const onZoomChangeRef = useRef(onZoomChange);
  const onOpenFailedRef = useRef(onOpenFailed);
  /** The last zoom reported or applied, so a report does not come back as a request. */
  const settledZoom = useRef<number | null>(null);

  const onNoteOpenRef = useRef(onNoteOpen);
  const onDrawRef = useRef(onDraw);
  useEffect(() => {
    zoomRef.current = zoomPercent;
    onZoomChangeRef.current = onZoomChange;
    onOpenFailedRef.current = onOpenFailed;
    onNoteOpenRef.current = onNoteOpen;
    onDrawRef.current = onDraw;
  });

  useEffect(() => {
    const element = containerRef.current;
    if (!element) return;
    const viewer = OpenSeadragon({
      element,
      // The 2D canvas drawer: OpenSeadragon 6 defaults to WebGL, which on machines without a GPU
      // (reading-room terminals, headless browsers) falls back to software GL and took ~0.5 s of main
      // thread per page here, plus ~0.15 s to probe for WebGL; one flat page needs none of it.
      drawer: 'canvas',
      showNavigationControl: false,
      keyboardNavEnabled: false,
      crossOriginPolicy: false,
      visibilityRatio: 0.2,
      constrainDuringPan: true,
      // The chosen percentage stays when the pane changes size (directory shown or hidden, window resized).
      preserveImageSizeOnResize: true,
      animationTime: 0.3,
      blendTime: 0,
      immediateRender: true,
      zoomPerScroll: 1.2,
      gestureSettingsMouse: {
        clickToZoom: false,
        dblClickToZoom: true,
        scrollToZoom: true,
        flickEnabled: false,
      },
      gestureSettingsTouch: {
        pinchToZoom: true,
        flickEnabled: true,
        clickToZoom: false,
        dblClickToZoom: true,
      },
    });
    viewerRef.current = viewer;

    const imageZoom = (): number => viewer.viewport.viewportToImageZoom(viewer.viewport.getZoom(true)) * 100;

    /** Limits wheel and pinch zoom to the reader's range; the range depends on the pane's size. */
    const setLimits = () => {
      const viewport = viewer.viewport as unknown as ZoomLimits & OpenSeadragon.Viewport;
      viewport.minZoomLevel = viewer.viewport.imageToViewportZoom(MIN_ZOOM);
      viewport.maxZoomLevel = viewer.viewport.imageToViewportZoom(MAX_ZOOM);
    };

    const report = () => {
      const percent = clampZoom(imageZoom());
      if (percent === settledZoom.current) return;
      settledZoom.current = percent;
      onZoomChangeRef.current(percent);
    };

    viewer.addHandler('open', () => {
      setOpened((n) => n + 1);
      setLimits();
      const item = viewer.world.getItemAt(0);
      const container = viewer.viewport.getContainerSize();
      let percent = zoomRef.current;
      if (percent == null && item) {
        const size = item.getContentSize();
        percent = fittingZoom({ width: size.x, height: size.y }, { width: container.x, height: container.y });
      }
      if (percent != null) {
        viewer.viewport.zoomTo(viewer.viewport.imageToViewportZoom(percent / 100), undefined, true);
        showReadingStart(viewer);
        settledZoom.current = percent;
        if (percent !== zoomRef.current) onZoomChangeRef.current(percent);
      }
    });
    // Tells tests and the first-page benchmark when the page is on screen at its display resolution.
    viewer.world.addHandler('add-item', (event) => {
      setDrawn(false);
      event.item.addHandler('fully-loaded-change', (change) => setDrawn(change.fullyLoaded));
    });
    viewer.addHandler('open-failed', () => onOpenFailedRef.current?.());
    viewer.addHandler('animation-finish', report);
    viewer.addHandler('resize', () => {
      setLimits();
      report();
    });

    return () => {
      viewerRef.current = null;
      viewer.destroy();
    };
  }, []);

  useEffect(() => {
    const viewer = viewerRef.current;
    // A copy: OpenSeadragon keeps and changes the object it is given, and this one is shared.
    if (viewer && tileSource)
      viewer.open({ tileSource: typeof tileSource === 'string' ? tileSource : structuredClone(tileSource) });
  }, [tileSource]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || opened === 0) return;
    viewer.clearOverlays();
    for (const box of highlights ?? []) {
      const element = document.createElement('div');
      element.className = 'osd-hit';
      viewer.addOverlay({
        element,
        location: viewer.viewport.imageToViewportRectangle(
          box.left,
          box.top,
          box.right - box.left,
          box.bottom - box.top,
        ),
      });
    }
    const trackers: OpenSeadragon.MouseTracker[] = [];
    for (const note of notes ?? []) {
      const element = document.createElement('button');
      element.type = 'button';
      element.className = 'osd-note';
      element.setAttribute('aria-label', `批注：${note.text.slice(0, 40)}`);
      element.title = note.text;
      // OpenSeadragon takes the pointer events over its canvas; a tracker hands the click to the reader.
      trackers.push(
        new OpenSeadragon.MouseTracker({
          element,
          clickHandler: () => onNoteOpenRef.current?.(note.id),
        }),
      );
      element.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onNoteOpenRef.current?.(note.id);
        }
      });
      viewer.addOverlay({
        element,
        location: viewer.viewport.imageToViewportRectangle(note.x, note.y, note.w, note.h),
      });
    }
    return () => {
      for (const tracker of trackers) tracker.destroy();
    };
  }, [highlights, notes, opened]);

  // Drawing a note's rectangle: panning off, a drag draws, the release reports it in image pixels.
  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !drawing) return;
    viewer.setMouseNavEnabled(false);
    const draft = document.createElement('div');
    draft.className = 'osd-note-draft';
    let start: OpenSeadragon.Point | null = null;
    const toImage = (position: OpenSeadragon.Point) =>
      viewer.viewport.viewerElementToImageCoordinates(position);
    const rectOf = (a: OpenSeadragon.Point, b: OpenSeadragon.Point) => {
      const size = viewer.world.getItemAt(0)?.getContentSize();
      const maxX = size?.x ?? Number.POSITIVE_INFINITY;
      const maxY = size?.y ?? Number.POSITIVE_INFINITY;
      const x0 = Math.max(0, Math.min(a.x, b.x));
      const y0 = Math.max(0, Math.min(a.y, b.y));
      const x1 = Math.min(maxX, Math.max(a.x, b.x));
      const y1 = Math.min(maxY, Math.max(a.y, b.y));
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
        const location = viewer.viewport.imageToViewportRectangle(rect.x, rect.y, rect.w, rect.h);
        if (viewer.getOverlayById(draft)) viewer.updateOverlay(draft, location);
        else viewer.addOverlay({ element: draft, location });
      },
      releaseHandler: (event) => {
        if (!start) return;
        const rect = rectOf(start, toImage(event.position));
        start = null;
        viewer.removeOverlay(draft);
        if (rect.w >= 4 && rect.h >= 4) onDrawRef.current?.(rect);
      },
    });
    return () => {
      tracker.destroy();
      viewer.removeOverlay(draft);
      viewer.setMouseNavEnabled(true);
    };
  }, [drawing]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || zoomPercent == null || !viewer.world.getItemAt(0)) return;
    if (zoomPercent === settledZoom.current) return;
    settledZoom.current = zoomPercent;
    viewer.viewport.zoomTo(viewer.viewport.imageToViewportZoom(zoomPercent / 100));
    viewer.viewport.applyConstraints();
  }, [zoomPercent]);

  return (
    <div
      className="osd-pane"
      role="region"
      aria-label={label}
      data-drawn={drawn}
      data-highlights={highlights?.length ?? 0}
      data-drawing={drawing}
      onContextMenu={(event) => event.preventDefault()}
    >
      <div ref={containerRef} className="osd-container" />
    </div>
  );
}

/**
 * A page opens at its top right, where vertical text right to left begins; a page smaller than the
 * pane stays centred.
 */
function showReadingStart(viewer: OpenSeadragon.Viewer): void {
  const item = viewer.world.getItemAt(0);
  if (!item) return;
  const image = item.getBounds();
  const view = viewer.viewport.getBounds();
  const x = view.width < image.width ? image.x + image.width - view.width / 2 : image.x + image.width / 2;
  const y = view.height < image.height ? image.y + view.height / 2 : image.y + image.height / 2;
  viewer.viewport.panTo(new OpenSeadragon.Point(x, y), true);
}
