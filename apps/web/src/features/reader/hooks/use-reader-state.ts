/** Everything the reader of one volume shows and does, gathered for its view (pages/reader-view.tsx). */
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import type { ReaderData } from '@guji/shared';
import { usePageCitation } from '../components/cite-button.tsx';
import { currentEntry } from '../directory.ts';
import { useImageInfo, usePageOcr } from '../queries.ts';
import { startPage } from '../reader-navigation.ts';
import { useSession } from '../../account/queries.ts';
import { useFootprintReport, useReaderNotes } from '../../personal/index.ts';
import { useCharacterLinks } from './use-character-links.ts';
import { useCorrecting } from './use-correcting.tsx';
import { useFullScreen } from './use-full-screen.ts';
import { useImageAdjust } from './use-image-adjust.ts';
import { usePageImages } from './use-page-images.ts';
import { usePageTurns } from './use-page-turns.ts';
import { useReaderKeys } from './use-reader-keys.ts';
import { useReaderSearch } from './use-reader-search.ts';
import { useReaderZoom } from './use-reader-zoom.ts';
import { useSidePanel } from './use-side-panel.ts';

export interface ReaderStateOptions {
  data: ReaderData;
  /** True while another volume loads: the toolbar stays, the pane waits. */
  loadingVolume: boolean;
  directoryId: number | null;
  imageId: number | null;
  /** Text a search found on this page, to frame on the image (reading room). */
  highlight: string | null;
}

/** The reader's state, as useReaderState gives it to the parts of its view. */
export type ReaderState = ReturnType<typeof useReaderState>;

/**
 * The page shown and what the reader may do there, the view (mode, zoom, spread, image adjustments), the
 * page's text and the links between text and image, the side panel, the in-book search, the reader's
 * notes; the keys turn pages and zoom.
 */
export function useReaderState({ data, loadingVolume, directoryId, imageId, highlight }: ReaderStateOptions) {
  const navigate = useNavigate();
  const { book, volume, directory, pages } = data;
  const pageNumber = startPage(pages, directory, imageId, directoryId);
  const page = pages[pageNumber - 1];
  const citation = usePageCitation({ book, volume, page });
  const current = currentEntry(directory, pageNumber);
  const info = useImageInfo(loadingVolume || !page ? null : page.iiifBase);
  const session = useSession().data;
  const readingRoom = session?.readingRoom ?? false;
  // Catalogue staff correct the recognised text on /OCRPage (the server checks again).
  const canProofread = session?.user?.roles.includes('catalogAdmin') ?? false;
  const shownImageId = page && !loadingVolume ? page.imageId : null;

  const zoom = useReaderZoom();
  const { mode, withView } = zoom;
  const images = usePageImages({ loadingVolume, pages, pageNumber, page, info, mode });
  const side = useSidePanel();
  const image = useImageAdjust();
  const readerRef = useRef<HTMLDivElement>(null);
  const fullScreen = useFullScreen(readerRef);
  const pageOcr = usePageOcr(mode !== 'image' && shownImageId != null ? shownImageId : null);
  const ocr = pageOcr.data?.ocr ?? null;
  // The reader's own notes, downloads and footprint (a reader is always signed in: the server's rule).
  const signedIn = Boolean(session?.user);
  const notes = useReaderNotes(shownImageId, signedIn);
  useFootprintReport(shownImageId, signedIn);

  const turns = usePageTurns({ data, loadingVolume, pageNumber, step: images.step, navigate, withView });
  const search = useReaderSearch({ catalogId: book.catalogId, shownImageId, highlight, navigate, withView });
  // Characters are chosen wherever the text is shown (linked with the image side by side; 纠错 in both).
  const links = useCharacterLinks(mode !== 'image' ? ocr : null, shownImageId);
  const correcting = useCorrecting(mode !== 'image' ? ocr : null, shownImageId, links.linked, signedIn);

  useReaderKeys((command) => {
    if (command === 'zoomIn') zoom.changeZoom('in');
    else if (command === 'zoomOut') zoom.changeZoom('out');
    else turns.move(command);
  });

  return {
    data,
    loadingVolume,
    highlight,
    place: { pageNumber, page, total: pages.length, current },
    access: { readingRoom, canProofread, signedIn },
    citation,
    zoom,
    images,
    side,
    image,
    readerRef,
    fullScreen,
    pageOcr,
    ocr,
    notes,
    turns,
    search,
    links,
    correcting,
  };
}
