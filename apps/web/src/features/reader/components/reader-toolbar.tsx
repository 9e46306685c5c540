/** The reader's toolbar: directory, page turning, volume, zoom, in-book search, the reader's own tools, mode. */
import { useEffect, useState, type ReactNode } from 'react';
import { Button, Segmented, Select } from 'antd';
import { HoverTip } from '../../../components/hover-tip.tsx';
import {
  DoubleLeftOutlined,
  DoubleRightOutlined,
  EllipsisOutlined,
  LeftOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  MinusOutlined,
  PlusOutlined,
  ReadOutlined,
  RightOutlined,
} from '@ant-design/icons';
import { Link } from 'react-router';
import { ZOOM_LEVELS, type ReaderData } from '@guji/shared';
import { InBookSearchBox } from '../../catalog/index.ts';
import { ReaderDownloadMenu } from '../../personal/index.ts';
import { AddToPrint } from '../../print/index.ts';
import { DISPLAY_MODES, type DisplayMode, type PageMove, type ZoomChoice } from '../reader-navigation.ts';
import { PageNumberBox } from './page-number-box.tsx';
import { BookText } from '../../../components/book-text.tsx';
import { CiteButton } from './cite-button.tsx';

const FIT = 'fit';
const zoomOptions = [
  { value: FIT, label: '适应窗口' },
  ...ZOOM_LEVELS.map((level) => ({ value: level, label: `${level}%` })),
];
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
  const { sideOpen, pageNumber, total, onMove, volume, shownPercent, onZoomStep, page, signedIn } = props;
  const [moreOpen, setMoreOpen] = useState(false);
  // On a phone 更多 covers the page's foot: a page turned (a hit chosen, a volume changed) closes it.
  useEffect(() => setMoreOpen(false), [pageNumber, volume.fascicleId]);
  const atFirst = pageNumber <= 1;
  const atLast = pageNumber >= total;
  const percentLabel = shownPercent == null ? '适应' : `${shownPercent}%`;
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

        {/* Right to left: the next page lies to the left, as in the book. */}
        <div className="reader-pager" role="group" aria-label="翻页">
          <HoverTip title="尾页（End）">
            <Button
              className="reader-pager-end"
              icon={<DoubleLeftOutlined aria-hidden />}
              onClick={() => onMove('last')}
              disabled={atLast}
            >
              <span className="reader-button-text reader-wide-text">尾页</span>
            </Button>
          </HoverTip>
          <HoverTip title="下一页（←）">
            <Button icon={<LeftOutlined aria-hidden />} onClick={() => onMove('next')} disabled={atLast}>
              <span className="reader-button-text reader-wide-text">下一页</span>
            </Button>
          </HoverTip>
          <PageNumberBox key={pageNumber} page={pageNumber} total={total} onGo={props.onGoToPage} />
          <HoverTip title="上一页（→）">
            <Button onClick={() => onMove('previous')} disabled={atFirst}>
              <span className="reader-button-text reader-wide-text">上一页</span>
              <RightOutlined aria-hidden />
            </Button>
          </HoverTip>
          <HoverTip title="首页（Home）">
            <Button className="reader-pager-end" onClick={() => onMove('first')} disabled={atFirst}>
              <span className="reader-button-text reader-wide-text">首页</span>
              <DoubleRightOutlined aria-hidden />
            </Button>
          </HoverTip>
        </div>

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
        <Select
          aria-label="选择分册"
          className="reader-volume-select"
          value={volume.fascicleId}
          options={props.volumes.map((item) => ({
            value: item.fascicleId,
            label: <BookText>{item.name}</BookText>,
          }))}
          onChange={props.onVolumeChange}
          popupMatchSelectWidth={false}
        />

        <div className="reader-zoom" role="group" aria-label="缩放">
          <HoverTip title="缩小（-）">
            <Button
              icon={<MinusOutlined aria-hidden />}
              aria-label="缩小"
              onClick={() => onZoomStep('out')}
              disabled={shownPercent != null && shownPercent <= ZOOM_LEVELS[0]!}
            />
          </HoverTip>
          <Select<ZoomChoice>
            aria-label="缩放比例"
            className="reader-zoom-select"
            value={props.zoom}
            options={zoomOptions}
            labelRender={() => percentLabel}
            onChange={props.onZoomChoose}
            popupMatchSelectWidth={false}
          />
          <HoverTip title="放大（+）">
            <Button
              icon={<PlusOutlined aria-hidden />}
              aria-label="放大"
              onClick={() => onZoomStep('in')}
              disabled={shownPercent != null && shownPercent >= ZOOM_LEVELS[ZOOM_LEVELS.length - 1]!}
            />
          </HoverTip>
        </div>

        {props.mode === 'image' && (
          <HoverTip title="两页并排，右页在前，如书翻开">
            <Button
              icon={<ReadOutlined aria-hidden />}
              aria-pressed={props.spread}
              type={props.spread ? 'primary' : 'default'}
              ghost={props.spread}
              onClick={() => props.onSpreadChange(!props.spread)}
            >
              <span className="reader-tool-text">双页</span>
            </Button>
          </HoverTip>
        )}

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
        {/* On a wide screen these show as icons (their names stay for screen readers, a tooltip for the mouse). */}
        {props.notesButton && <ToolTip title="批注">{props.notesButton}</ToolTip>}
        {page && signedIn && (
          <ToolTip title="下载">
            <ReaderDownloadMenu imageId={page.imageId} fascicleId={volume.fascicleId} />
          </ToolTip>
        )}
        {page && signedIn && (
          <ToolTip title="加入打印">
            <AddToPrint
              imageId={page.imageId}
              fascicleId={volume.fascicleId}
              pageNumber={pageNumber}
              total={total}
            />
          </ToolTip>
        )}

        {page && (
          <span className="reader-tool">
            <CiteButton book={props.book} volume={volume} page={page} />
          </span>
        )}

        {props.canProofread && page && (
          <Link className="reader-proofread" to={`/OCRPage?imgid=${page.imageId}`}>
            校对文字
          </Link>
        )}
      </div>
    </div>
  );
}

/** A tool from another feature, shown as its icon on a wide screen, named by a tooltip there. */
function ToolTip({ title, children }: { title: string; children: ReactNode }) {
  return (
    <HoverTip title={title}>
      <span className="reader-tool">{children}</span>
    </HoverTip>
  );
}
