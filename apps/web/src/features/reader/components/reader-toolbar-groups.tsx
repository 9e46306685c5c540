/** The groups of the reader's toolbar: volume, page turning, zoom, spread, and the tools for the page shown. */
import type { ReactNode } from 'react';
import { Button, Select } from 'antd';
import {
  DoubleLeftOutlined,
  DoubleRightOutlined,
  LeftOutlined,
  MinusOutlined,
  PlusOutlined,
  ReadOutlined,
  RightOutlined,
} from '@ant-design/icons';
import { Link } from 'react-router';
import { ZOOM_LEVELS, type ReaderData } from '@guji/shared';
import { BookText } from '../../../components/book-text.tsx';
import { HoverTip } from '../../../components/hover-tip.tsx';
import { ReaderDownloadMenu } from '../../personal/index.ts';
import { AddToPrint } from '../../print/index.ts';
import type { PageMove, ZoomChoice } from '../reader-navigation.ts';
import { PageNumberBox } from './page-number-box.tsx';
import { CiteButton } from './cite-button.tsx';

const FIT = 'fit';
const zoomOptions = [
  { value: FIT, label: '适应窗口' },
  ...ZOOM_LEVELS.map((level) => ({ value: level, label: `${level}%` })),
];

/** The volume shown, and the choice of another of the book's. */
export function VolumeSelect({
  volume,
  volumes,
  onChange,
}: {
  volume: ReaderData['volume'];
  volumes: ReaderData['volumes'];
  onChange: (fascicleId: number) => void;
}) {
  return (
    <Select
      aria-label="选择分册"
      className="reader-volume-select"
      value={volume.fascicleId}
      options={volumes.map((item) => ({
        value: item.fascicleId,
        label: <BookText>{item.name}</BookText>,
      }))}
      onChange={onChange}
      popupMatchSelectWidth={false}
    />
  );
}

/** Page turning, right to left: the next page lies to the left, as in the book. */
export function ReaderPager({
  pageNumber,
  total,
  onMove,
  onGoToPage,
}: {
  pageNumber: number;
  total: number;
  onMove: (how: PageMove) => void;
  onGoToPage: (page: number) => void;
}) {
  const atFirst = pageNumber <= 1;
  const atLast = pageNumber >= total;
  return (
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
      <PageNumberBox key={pageNumber} page={pageNumber} total={total} onGo={onGoToPage} />
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
  );
}

/** Zoom: a step out, the choice (fitted or a percentage, showing the percentage reached), a step in. */
export function ZoomControls({
  zoom,
  shownPercent,
  onZoomStep,
  onZoomChoose,
}: {
  zoom: ZoomChoice;
  shownPercent: number | null;
  onZoomStep: (direction: 'in' | 'out') => void;
  onZoomChoose: (zoom: ZoomChoice) => void;
}) {
  const percentLabel = shownPercent == null ? '适应' : `${shownPercent}%`;
  return (
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
        value={zoom}
        options={zoomOptions}
        labelRender={() => percentLabel}
        onChange={onZoomChoose}
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
  );
}

/** 双页: two pages side by side, the right one first, as a book lies open (image mode). */
export function SpreadButton({ spread, onChange }: { spread: boolean; onChange: (spread: boolean) => void }) {
  return (
    <HoverTip title="两页并排，右页在前，如书翻开">
      <Button
        icon={<ReadOutlined aria-hidden />}
        aria-pressed={spread}
        type={spread ? 'primary' : 'default'}
        ghost={spread}
        onClick={() => onChange(!spread)}
      >
        <span className="reader-tool-text">双页</span>
      </Button>
    </HoverTip>
  );
}

export interface PageToolsProps {
  /** The reader's notes button (useReaderNotes). */
  notesButton: ReactNode;
  book: ReaderData['book'];
  volume: ReaderData['volume'];
  page: ReaderData['pages'][number] | undefined;
  pageNumber: number;
  total: number;
  signedIn: boolean;
  /** Catalogue staff may open the page's text for proofreading. */
  canProofread: boolean;
}

/** The tools for the page shown: notes, download, print, citation, and proofreading for catalogue staff. */
export function PageTools({
  notesButton,
  book,
  volume,
  page,
  pageNumber,
  total,
  signedIn,
  canProofread,
}: PageToolsProps) {
  return (
    <>
      {/* On a wide screen these show as icons (their names stay for screen readers, a tooltip for the mouse). */}
      {notesButton && <ToolTip title="批注">{notesButton}</ToolTip>}
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
          <CiteButton book={book} volume={volume} page={page} />
        </span>
      )}

      {canProofread && page && (
        <Link className="reader-proofread" to={`/OCRPage?imgid=${page.imageId}`}>
          校对文字
        </Link>
      )}
    </>
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
