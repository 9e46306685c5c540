/** The IIIF request of every thumbnail (covers, lists), as region/size/rotation/quality.format. */
export const THUMBNAIL_REQUEST = ['full', '!240,240', '0', 'default.jpg'] as const;
