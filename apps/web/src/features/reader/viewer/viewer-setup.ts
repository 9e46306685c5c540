/**
 * The image pane's OpenSeadragon viewer: its settings and the handlers bound once when it is made. The
 * handlers read the pane's latest props through a ref, so they never need binding again.
 */
import type { RefObject } from 'react';
import OpenSeadragon from 'openseadragon';
import { ZOOM_LEVELS } from '@guji/shared';
import { clampZoom, type ZoomChoice } from '../reader-navigation.ts';
import { swipeMove, type SwipeSample } from './swipe.ts';
import type { OpenSeadragonViewerProps } from '../components/openseadragon-viewer.tsx';

/** Runtime fields of OpenSeadragon's viewport that its type declarations leave out. */
interface ZoomLimits {
  minZoomLevel: number | null;
  maxZoomLevel: number | null;
}

const MIN_ZOOM = ZOOM_LEVELS[0]! / 100;
const MAX_ZOOM = ZOOM_LEVELS[ZOOM_LEVELS.length - 1]! / 100;

/** The pane's props as they are now, for handlers bound once. */
export type LatestProps = RefObject<OpenSeadragonViewerProps>;

/** The page shown (the right-hand one of a spread), once one is open. */
export function mainPage(viewer: OpenSeadragon.Viewer): OpenSeadragon.TiledImage | undefined {
  return viewer.world.getItemAt(0);
}

/** Makes the viewer in `element`: the reader's keys, gestures and drawing settings. */
export function createViewer(element: HTMLElement): OpenSeadragon.Viewer {
  return OpenSeadragon({
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
    // A chosen percentage stays when the pane changes size; a fitted page is fitted again (followZoom).
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
}

/**
 * Opens each page at the chosen zoom and rotation, keeps wheel and pinch within the reader's range, and
 * reports the zoom shown after opening, an animation or a resize (and a gesture's as the reader's choice).
 */
export function followZoom(
  viewer: OpenSeadragon.Viewer,
  latest: LatestProps,
  setPage: (page: OpenSeadragon.TiledImage | null) => void,
): void {
  const imageZoom = (): number | null => {
    const item = mainPage(viewer);
    return item ? item.viewportToImageZoom(viewer.viewport.getZoom(true)) * 100 : null;
  };
  /** Limits wheel and pinch zoom to the reader's range, and never above what fitting needs. */
  const setLimits = () => {
    const item = mainPage(viewer);
    if (!item) return;
    const viewport = viewer.viewport as unknown as ZoomLimits & OpenSeadragon.Viewport;
    viewport.minZoomLevel = Math.min(item.imageToViewportZoom(MIN_ZOOM), viewer.viewport.getHomeZoom());
    viewport.maxZoomLevel = item.imageToViewportZoom(MAX_ZOOM);
  };
  const applyZoom = (choice: ZoomChoice, opening: boolean) => {
    const item = mainPage(viewer);
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
    setPage(mainPage(viewer) ?? null);
    viewer.viewport.setRotation(latest.current.rotation ?? 0, true);
    setLimits();
    applyZoom(latest.current.zoom, true);
  });
  viewer.addHandler('animation-finish', report);
  viewer.addHandler('resize', () => {
    setLimits();
    if (latest.current.zoom === 'fit') viewer.viewport.goHome(true);
    report();
  });
}

/**
 * Tells tests and the first-page benchmark when the page is on screen at its display resolution, and
 * the pane when a page could not be opened.
 */
export function followLoading(
  viewer: OpenSeadragon.Viewer,
  latest: LatestProps,
  setDrawn: (drawn: boolean) => void,
): void {
  viewer.world.addHandler('add-item', (event) => {
    setDrawn(false);
    event.item.addHandler('fully-loaded-change', () => {
      const items = Array.from({ length: viewer.world.getItemCount() }, (_, i) => viewer.world.getItemAt(i));
      setDrawn(items.every((item) => item.getFullyLoaded()));
    });
  });
  viewer.addHandler('open-failed', () => latest.current.onOpenFailed?.());
}

/** A swipe turns the page while it is shown whole; zoomed in, the same move pans. */
export function followSwipes(viewer: OpenSeadragon.Viewer, latest: LatestProps): void {
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
}

/**
 * Reports the point of the page under the mouse, or tapped (a tap on a character links it to the text,
 * as hovering does with a mouse), and null when the pointer leaves. Returns the removal of its listeners.
 */
export function followPointer(
  viewer: OpenSeadragon.Viewer,
  element: HTMLElement,
  latest: LatestProps,
): () => void {
  viewer.addHandler('canvas-click', (event) => {
    const item = mainPage(viewer);
    if (event.quick && item)
      latest.current.onPointImage?.(item.viewerElementToImageCoordinates(event.position));
  });
  const onPointerMove = (event: PointerEvent) => {
    const item = mainPage(viewer);
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
  };
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
