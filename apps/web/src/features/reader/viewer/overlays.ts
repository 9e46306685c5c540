import OpenSeadragon from 'openseadragon';
import type { OcrPoints } from '@guji/shared';

/**
 * Lays boxes given in image pixels of `item` (the page) over it, each a `div` of `className`, and
 * returns the function that takes them away again. With two pages shown (a spread) the boxes belong to
 * the page they were measured on, so they are placed through that page's own coordinates.
 */
export function addBoxOverlays(
  viewer: OpenSeadragon.Viewer,
  item: OpenSeadragon.TiledImage,
  boxes: readonly OcrPoints[],
  className: string,
): () => void {
  const elements = boxes.map((box) => {
    const element = document.createElement('div');
    element.className = className;
    viewer.addOverlay({
      element,
      location: item.imageToViewportRectangle(box.left, box.top, box.right - box.left, box.bottom - box.top),
    });
    return element;
  });
  return () => {
    for (const element of elements) viewer.removeOverlay(element);
  };
}

/**
 * Brings a box into view when it is not: pans to it, and zooms out only as far as needed when it
 * is larger than the pane. A page shown whole (fitted) already shows it, and stays as it is.
 */
export function bringIntoView(
  viewer: OpenSeadragon.Viewer,
  item: OpenSeadragon.TiledImage,
  box: OcrPoints,
): void {
  const rect = item.imageToViewportRectangle(box.left, box.top, box.right - box.left, box.bottom - box.top);
  const view = viewer.viewport.getBounds(true);
  const inside =
    rect.x >= view.x &&
    rect.y >= view.y &&
    rect.x + rect.width <= view.x + view.width &&
    rect.y + rect.height <= view.y + view.height;
  if (inside) return;
  if (rect.width > view.width || rect.height > view.height) {
    const margin = Math.max(rect.width, rect.height) * 0.5;
    viewer.viewport.fitBounds(
      new OpenSeadragon.Rect(
        rect.x - margin,
        rect.y - margin,
        rect.width + 2 * margin,
        rect.height + 2 * margin,
      ),
    );
    return;
  }
  viewer.viewport.panTo(rect.getCenter());
}
