/** The reader's toolbar: directory, page turning, volume, zoom, in-book search, the reader's own tools, mode. */
import { useEffect, useState, type ReactNode } from 'react';
import { Button, Segmented } from 'antd';
import { EllipsisOutlined, MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import type { ReaderData } from '@guji/shared';
import { InBookSearchBox } from '../../catalog/index.ts';
import { DISPLAY_MODES, type DisplayMode, type PageMove, type ZoomChoice } from '../reader-navigation.ts';
import {
  PageTools,
  ReaderPager,
  SpreadButton,
  VolumeSelect,
  ZoomControls,
} from './reader-toolbar-groups.tsx';

const EXTRA_ID = 'reader-toolbar-extra';

export interface ReaderToolbarProps {
  /** The id of the side panel (directory, thumbnails, search hits) the 目录 button shows and hides. */
  sidePanelId: string;
  sideOpen: boolean;
  onToggleSide: () => void;
  pageNumber: number;
  total: number;
  onGoToPage: (page: number) => void;
  onMove: (how: PageMove) => void;
  book: ReaderData['book'];
  volume: ReaderData['volume'];
  volumes: ReaderData['volumes'];
  onVolumeChange: (fascicleId: number) => void;
  /** The zoom chosen for the mode shown, and the percentage it shows now. */
  zoom: ZoomChoice;
  shownPercent: number | null;
  onZoomStep: (direction: 'in' | 'out') => void;
  onZoomChoose: (zoom: ZoomChoice) => void;
  /** Two pages side by side (image mode). */
  spread: boolean;
  onSpreadChange: (spread: boolean) => void;
  /** In-book search, offered in the reading room only. */
  readingRoom: boolean;
  searchText: string;
  onSearch: (text: string) => void;
  /** The reader's notes button (useReaderNotes). */
  notesButton: ReactNode;
  /** Rotation, brightness and contrast of the image, and full screen. */
  imageTools: ReactNode;
  /** The page shown, if the volume has any. */
  page: ReaderData['pages'][number] | undefined;
  signedIn: boolean;
  /** Catalogue staff may open the page's text for proofreading. */
  canProofread: boolean;
  mode: DisplayMode;
  onModeChange: (mode: DisplayMode) => void;
}

/**
 * Two groups: what a reader needs on every page (side panel, page turning, mode) and the rest. On a
 * wide screen both show in one bar; on a phone the bar sits at the bottom within reach of a thumb and
 * the rest opens with «更多».
 */
export function ReaderToolbar(props: ReaderToolbarProps) {
  const { sideOpen, pageNumber, total, volume } = props;
  const [moreOpen, setMoreOpen] = useState(false);
  // On a phone 更多 covers the page's foot: a page turned (a hit chosen, a volume changed) closes it.
  useEffect(() => setMoreOpen(false), [pageNumber, volume.fascicleId]);
  return (
    <div className="reader-toolbar" role="group" aria-label="阅读工具栏" data-more-open={moreOpen}>
      <div className="reader-toolbar-main">
        <Button
          icon={sideOpen ? <MenuFoldOutlined aria-hidden /> : <MenuUnfoldOutlined aria-hidden />}
          aria-expanded={sideOpen}
          aria-controls={props.sidePanelId}
          onClick={props.onToggleSide}
        >
          <span className="reader-button-text reader-wide-text">目录</span>
        </Button>

        <ReaderPager
          pageNumber={pageNumber}
          total={total}
          onMove={props.onMove}
          onGoToPage={props.onGoToPage}
        />

        <Segmented<DisplayMode>
          aria-label="显示模式"
          options={DISPLAY_MODES.map((option) => ({ value: option.value, label: option.label }))}
          value={props.mode}
          onChange={props.onModeChange}
        />

        <Button
          className="reader-more-button"
          icon={<EllipsisOutlined aria-hidden />}
          aria-expanded={moreOpen}
          aria-controls={EXTRA_ID}
          onClick={() => setMoreOpen((open) => !open)}
        >
          <span className="reader-button-text">更多</span>
        </Button>
      </div>

      <div className="reader-toolbar-extra" id={EXTRA_ID}>
        <VolumeSelect volume={volume} volumes={props.volumes} onChange={props.onVolumeChange} />

        <ZoomControls
          zoom={props.zoom}
          shownPercent={props.shownPercent}
          onZoomStep={props.onZoomStep}
          onZoomChoose={props.onZoomChoose}
        />

        {props.mode === 'image' && <SpreadButton spread={props.spread} onChange={props.onSpreadChange} />}

        {props.readingRoom && (
          <InBookSearchBox
            compact
            initial={props.searchText}
            onSearch={(text) => {
              setMoreOpen(false);
              props.onSearch(text);
            }}
          />
        )}

        {props.imageTools}
        <PageTools
          notesButton={props.notesButton}
          book={props.book}
          volume={volume}
          page={props.page}
          pageNumber={pageNumber}
          total={total}
          signedIn={props.signedIn}
          canProofread={props.canProofread}
        />
      </div>
    </div>
  );
}
