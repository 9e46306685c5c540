/**
 * The image pane's viewer, in the manner of Mirador's OpenSeadragonViewer: one OpenSeadragon viewer
 * owned through a ref, made once, then driven by the pane's props, each concern by a hook of its own.
 * The pane calls them in this file's order, which is the order their effects run in.
 */
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type OpenSeadragon from 'openseadragon';
import type { OcrPoints } from '@guji/shared';
import type { ZoomChoice } from '../reader-navigation.ts';
import type { OpenSeadragonViewerProps, TileSource } from '../components/openseadragon-viewer.tsx';
import { addBoxOverlays, bringIntoView } from '../viewer/overlays.ts';
import { addNoteOverlays, startNoteDrawing, type ViewerNote } from '../viewer/notes.ts';
import { placeBootPreview, releaseBootPreview } from '../viewer/boot-preview.ts';
import {
  createViewer,
  followLoading,
  followPointer,
  followSwipes,
  followZoom,
  type LatestProps,
} from '../viewer/viewer-setup.ts';

type ViewerRef = RefObject<OpenSeadragon.Viewer | null>;

/**
 * Makes the viewer in the pane's container once and binds its handlers; tells whether the page is drawn
 * (index.html's early page image lies over the pane until it is) and which page is open, for overlays.
 */
export function useOpenSeadragon(props: OpenSeadragonViewerProps) {
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
    const viewer = createViewer(element);
    viewerRef.current = viewer;
    followZoom(viewer, latest, setPage);
    followLoading(viewer, latest, setDrawn);
    followSwipes(viewer, latest);
    const stopPointer = followPointer(viewer, element, latest);
    return () => {
      stopPointer();
      viewerRef.current = null;
      viewer.destroy();
    };
  }, []);

  return { containerRef, viewerRef, latest, drawn, page };
}

/**
 * What the pane shows of the page: a new tile source opens that page (or spread); a new zoom choice
 * from the toolbar, the keys or the menu fits the page or animates to the percentage (a gesture's own
 * choice is already shown); a quarter turn turns the page about its centre, fitted again if it was.
 */
export function useViewerView(
  viewerRef: ViewerRef,
  latest: LatestProps,
  page: OpenSeadragon.TiledImage | null,
  view: {
    tileSource: TileSource | null;
    spreadSource: TileSource | null;
    zoom: ZoomChoice;
    rotation: number;
  },
) {
  const { tileSource, spreadSource, zoom, rotation } = view;
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
  }, [viewerRef, tileSource, spreadSource]);

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
  }, [viewerRef, zoom, page]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || viewer.viewport.getRotation() === rotation) return;
    viewer.viewport.setRotation(rotation);
    if (latest.current.zoom === 'fit') viewer.viewport.goHome();
  }, [viewerRef, latest, rotation, page]);
}

/** What the viewer lays over the page: the boxes to frame, the characters linked, the reader's notes. */
export interface ViewerMarks {
  highlights: readonly OcrPoints[] | undefined;
  focusBoxes: readonly OcrPoints[] | undefined;
  linkBox: OcrPoints | null | undefined;
  selectedBoxes: readonly OcrPoints[] | undefined;
  notes: readonly ViewerNote[] | undefined;
  drawing: boolean;
}

/**
 * Lays the marks over the open page, each kind replaced when it changes: search hits, the occurrence
 * visited (brought into view), the linked and the selected characters, the notes; and while drawing,
 * a drag draws a note's rectangle.
 */
export function useViewerOverlays(
  viewerRef: ViewerRef,
  latest: LatestProps,
  page: OpenSeadragon.TiledImage | null,
  marks: ViewerMarks,
) {
  const { highlights, focusBoxes, linkBox, selectedBoxes, notes, drawing } = marks;
  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || !highlights?.length) return;
    return addBoxOverlays(viewer, page, highlights, 'osd-hit');
  }, [viewerRef, highlights, page]);

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
  }, [viewerRef, focusBoxes, page]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || !linkBox) return;
    return addBoxOverlays(viewer, page, [linkBox], 'osd-link');
  }, [viewerRef, linkBox, page]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || !selectedBoxes?.length) return;
    return addBoxOverlays(viewer, page, selectedBoxes, 'osd-selected');
  }, [viewerRef, selectedBoxes, page]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || !notes?.length) return;
    return addNoteOverlays(viewer, page, notes, (id) => latest.current.onNoteOpen?.(id));
  }, [viewerRef, latest, notes, page]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !page || !drawing) return;
    return startNoteDrawing(viewer, page, (rect) => latest.current.onDraw?.(rect));
  }, [viewerRef, latest, drawing, page]);
}
