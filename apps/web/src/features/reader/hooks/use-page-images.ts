/** The page images the reader's viewer opens: the page shown, and in a spread the next one beside it. */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ReaderData } from '@guji/shared';
import { imageInfoQuery, useImageInfo } from '../queries.ts';
import type { DisplayMode } from '../reader-navigation.ts';
import { keepBootPreviewFor } from '../viewer/boot-preview.ts';

export interface PageImagesOptions {
  /** True while another volume loads: nothing is opened. */
  loadingVolume: boolean;
  pages: ReaderData['pages'];
  pageNumber: number;
  page: ReaderData['pages'][number] | undefined;
  /** The page's info.json, as asked for. */
  info: ReturnType<typeof useImageInfo>;
  mode: DisplayMode;
}

/**
 * The tile sources of the page (and, in a spread, of the page left of it) and the spread choice, which
 * holds in image mode only; keeps index.html's early image only while it stands for the page shown, and
 * asks early for the info.json of the pages either side, the next to be turned to.
 */
export function usePageImages({ loadingVolume, pages, pageNumber, page, info, mode }: PageImagesOptions) {
  // index.html's early image stands for this page only while it is shown as an image.
  useEffect(() => {
    if (!loadingVolume) keepBootPreviewFor(mode === 'image' ? (page?.imageId ?? null) : null);
  }, [loadingVolume, mode, page?.imageId]);
  const [spreadChosen, setSpread] = useState(false);
  const spread = spreadChosen && mode === 'image';
  const step = spread ? 2 : 1;
  // A spread shows the next page to the left of this one.
  const leftPage = spread ? pages[pageNumber] : undefined;
  const leftInfo = useImageInfo(loadingVolume || !leftPage ? null : leftPage.iiifBase);
  // The viewer opens the fetched info.json; if that failed, its URL, so the viewer reports the failure.
  const tileSource =
    loadingVolume || !page ? null : (info.data ?? (info.isError ? `${page.iiifBase}/info.json` : null));
  const spreadSource = leftPage ? (leftInfo.data ?? null) : null;
  // The pages either side are the next to be turned to: know their info.json before that.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (loadingVolume || !info.data) return;
    for (const near of [
      pages[pageNumber - 1 + step],
      pages[pageNumber - 1 - step],
      pages[pageNumber + step],
    ]) {
      if (near) void queryClient.prefetchQuery(imageInfoQuery(near.iiifBase));
    }
  }, [queryClient, loadingVolume, info.data, pages, pageNumber, step]);
  return { spread, setSpread, step, leftPage, tileSource, spreadSource };
}
