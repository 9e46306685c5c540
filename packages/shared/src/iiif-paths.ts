/** The path of a page's IIIF canvas (Presentation API 3) in its volume's manifest; prefix the origin. */
export const canvasPath = (volumeId: number, pageId: number) =>
  `/iiif/presentation/volumes/${volumeId}/canvas/${pageId}`;
