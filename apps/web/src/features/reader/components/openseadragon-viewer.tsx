import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import OpenSeadragon from 'openseadragon';
import { ZOOM_LEVELS, type OcrPoints } from '@guji/shared';
import { clampZoom, type PageMove, type ZoomChoice } from '../reader-navigation.ts';
import { addBoxOverlays, bringIntoView } from '../viewer/overlays.ts';
import { addNoteOverlays, startNoteDrawing, type ViewerNote } from '../viewer/notes.ts';
import { swipeMove, type SwipeSample } from '../viewer/swipe.ts';
import { placeBootPreview, releaseBootPreview } from '../viewer/boot-preview.ts';

export type { ViewerNote } from '../viewer/notes.ts';

/** Runtime fields of OpenSeadragon's viewport that its type declarations leave out. */
interface ZoomLimits {
  minZoomLevel: number | null;
  maxZoomLevel: number | null;
}

const MIN_ZOOM = ZOOM_LEVELS[0]! / 100;
const MAX_ZOOM = ZOOM_LEVELS[ZOOM_LEVELS.length - 1]! / 100;

type TileSource = string | Record<string, unknown>;

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
  const {
    tileSource,
    spreadSource = null,
    zoom,
    label,
    highlights,
    focusBoxes,
    linkBox,
    selectedBoxes,
  } = props;
  const { notes, drawing = false } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<OpenSeadragon.Viewer | null>(null);
  const [drawn, setDrawn] = useState(false);
  /** The page shown (the right-hand one of a spread); overlays are laid on it. */
  const [page, setPage] = useState<OpenSeadragon.TiledImage | null>(null);
  // The latest props, for the viewer's event handlers, which are bound once.
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  // The page image index.html showed early lies over this pane until the viewer has drawn the page.
  useLayoutEffect(() => placeBootPreview(containerRef.current), []);
  useEffect(() => {
    if (drawn) releaseBootPreview();
  }, [drawn]);

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
      // A chosen percentage stays when the pane changes size; a fitted page is fitted again (below).
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
    const main = () => viewer.world.getItemAt(0) as OpenSeadragon.TiledImage | undefined;
    const imageZoom = (): number | null => {
      const item = main();
      return item ? item.viewportToImageZoom(viewer.viewport.getZoom(true)) * 100 : null;
    };

    /** Limits wheel and pinch zoom to the reader's range, and never above what fitting needs. */
    const setLimits = () => {
      const item = main();
      if (!item) return;
      const viewport = viewer.viewport as unknown as ZoomLimits & OpenSeadragon.Viewport;
      viewport.minZoomLevel = Math.min(item.imageToViewportZoom(MIN_ZOOM), viewer.viewport.getHomeZoom());
      viewport.maxZoomLevel = item.imageToViewportZoom(MAX_ZOOM);
    };
    const applyZoom = (choice: ZoomChoice, opening: boolean) => {
      const item = main();
      if (!item) return;
      if (choice === 'fit') viewer.viewport.goHome(opening);
      else {
        viewer.viewport.zoomTo(item.imageToViewportZoom(choice / 100), undefined, opening);
        if (opening) showReadingStart(viewer);
      }
      if (opening) report();
    };
    /** Set by a wheel, pinch or double click, so the zoom they reach becomes the mode's choice. */
    let gesture = false;
    const report = () => {
      const percent = imageZoom();
      if (percent == null) return;
      if (gesture) latest.current.onUserZoom(clampZoom(percent));
      gesture = false;
      latest.current.onZoomShown(Math.round(percent));
    };
    for (const name of ['canvas-scroll', 'canvas-pinch', 'canvas-double-click'] as const) {
      viewer.addHandler(name, () => {
        gesture = true;
      });
    }
    viewer.addHandler('open', () => {
      setPage(main() ?? null);
      viewer.viewport.setRotation(latest.current.rotation ?? 0, true);
      setLimits();
      applyZoom(latest.current.zoom, true);
    });
    // Tells tests and the first-page benchmark when the page is on screen at its display resolution.
    viewer.world.addHandler('add-item', (event) => {
      setDrawn(false);
      event.item.addHandler('fully-loaded-change', () => {
        const items = Array.from({ length: viewer.world.getItemCount() }, (_, i) =>
          viewer.world.getItemAt(i),
        );
        setDrawn(items.every((item) => item.getFullyLoaded()));
      });
    });
    viewer.addHandler('open-failed', () => latest.current.onOpenFailed?.());
    viewer.addHandler('animation-finish', report);
    viewer.addHandler('resize', () => {
      setLimits();
      if (latest.current.zoom === 'fit') viewer.viewport.goHome(true);
      report();
    });

    // A swipe turns the page while it is shown whole; zoomed in, the same move pans.
    let touchStart: SwipeSample | null = null;
    let pinched = false;
    viewer.addHandler('canvas-press', (event) => {
      pinched = false;
      touchStart =
        event.pointerType === 'touch' ? { x: event.position.x, y: event.position.y, time: Date.now() } : null;
    });
    viewer.addHandler('canvas-pinch', () => {
      pinched = true;
    });
    viewer.addHandler('canvas-release', (event) => {
      const start = touchStart;
      touchStart = null;
      if (!start || pinched || event.pointerType !== 'touch') return;
      const fitted = viewer.viewport.getZoom() <= viewer.viewport.getHomeZoom() * 1.05;
      const move = fitted
        ? swipeMove(start, { x: event.position.x, y: event.position.y, time: Date.now() })
        : null;
      if (move) latest.current.onSwipe?.(move);
    });
    // A tap on a character links it to the text, as hovering does with a mouse.
    viewer.addHandler('canvas-click', (event) => {
      const item = main();
      if (event.quick && item)
        latest.current.onPointImage?.(item.viewerElementToImageCoordinates(event.position));
    });
    const onPointerMove = (event: PointerEvent) => {
      const item = main();
      if (!item || event.pointerType === 'touch' || !latest.current.onPointImage) return;
      const box = element.getBoundingClientRect();
      const point = new OpenSeadragon.Point(event.clientX - box.left, event.clientY - box.top);
      latest.current.onPointImage(item.viewerElementToImageCoordinates(point));
    };
    const onPointerLeave = () => latest.current.onPointImage?.(null);
    element.addEventListener('pointermove', onPointerMove);
    element.addEventListener('pointerleave', onPointerLeave);

    return () => {
      element.removeEventListener('pointermove', onPointerMove);
      element.removeEventListener('pointerleave', onPointerLeave);
      viewerRef.current = null;
      viewer.destroy();
    };
  }, []);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !tileSource) return;
    // Copies: OpenSeadragon keeps and changes the object it is given, and these are shared.
    const copy = (source: TileSource) => (typeof source === 'string' ? source : structuredClone(source));
    if (spreadSource) {
      // Right to left, as a bound book opens: this page on the right, the next on the left.
      viewer.open([
        { tileSource: copy(tileSource), x: 1.02, y: 0, width: 1 },
        { tileSource: copy(spreadSource), x: 0, y: 0, width: 1 },
      ]);
    } else viewer.open({ tileSource: copy(tileSource) });
  }, [tileSource, spreadSource]);

  // A new choice from the toolbar, the keys or the menu; a gesture's own choice is already shown.
  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page) return;
    if (zoom === 'fit') {
      viewer.viewport.goHome();
      return;
    }
    const current = page.viewportToImageZoom(viewer.viewport.getZoom(true)) * 100;
    if (Math.abs(current - zoom) < 0.5) return;
    viewer.viewport.zoomTo(page.imageToViewportZoom(zoom / 100));
    viewer.viewport.applyConstraints();
  }, [zoom, page]);

  // A quarter turn: the page turns about its centre; a fitted page is fitted again as turned.
  const rotation = props.rotation ?? 0;
  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || viewer.viewport.getRotation() === rotation) return;
    viewer.viewport.setRotation(rotation);
    if (latest.current.zoom === 'fit') viewer.viewport.goHome();
  }, [rotation, page]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || !highlights?.length) return;
    return addBoxOverlays(viewer, page, highlights, 'osd-hit');
  }, [highlights, page]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || !focusBoxes?.length) return;
    const remove = addBoxOverlays(viewer, page, focusBoxes, 'osd-hit osd-hit-current');
    bringIntoView(viewer, page, {
      left: Math.min(...focusBoxes.map((box) => box.left)),
      top: Math.min(...focusBoxes.map((box) => box.top)),
      right: Math.max(...focusBoxes.map((box) => box.right)),
      bottom: Math.max(...focusBoxes.map((box) => box.bottom)),
    });
    return remove;
  }, [focusBoxes, page]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || !linkBox) return;
    return addBoxOverlays(viewer, page, [linkBox], 'osd-link');
  }, [linkBox, page]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || !selectedBoxes?.length) return;
    return addBoxOverlays(viewer, page, selectedBoxes, 'osd-selected');
  }, [selectedBoxes, page]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || !notes?.length) return;
    return addNoteOverlays(viewer, page, notes, (id) => latest.current.onNoteOpen?.(id));
  }, [notes, page]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || !drawing) return;
    return startNoteDrawing(viewer, page, (rect) => latest.current.onDraw?.(rect));
  }, [drawing, page]);

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

/**
 * A page shown larger than the pane opens at its top right, where vertical text right to left begins;
 * a page smaller than the pane stays centred.
 */
function showReadingStart(viewer: OpenSeadragon.Viewer): void {
  const first = viewer.world.getItemAt(0);
  if (!first) return;
  const image = viewer.world.getHomeBounds();
  const view = viewer.viewport.getBounds();
  const x = view.width < image.width ? image.x + image.width - view.width / 2 : image.x + image.width / 2;
  const y = view.height < image.height ? image.y + view.height / 2 : image.y + image.height / 2;
  viewer.viewport.panTo(new OpenSeadragon.Point(x, y), true);
}
