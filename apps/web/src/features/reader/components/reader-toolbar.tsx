/** The reader's toolbar: directory, page turning, volume, zoom, in-book search, the reader's own tools, mode. */
import type { ReactNode } from 'react';
import { Button, Segmented, Select, Tooltip } from 'antd';
import {
  DoubleLeftOutlined,
  DoubleRightOutlined,
  LeftOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  MinusOutlined,
  PlusOutlined,
  RightOutlined,
} from '@ant-design/icons';
import { Link } from 'react-router';
import { ZOOM_LEVELS, type ReaderData } from '@guji/shared';
import { InBookSearchBox } from '../../catalog/index.ts';
import { ReaderDownloadMenu } from '../../personal/index.ts';
import { AddToPrint } from '../../print/index.ts';
import { DISPLAY_MODES, type DisplayMode, type PageMove } from '../reader-navigation.ts';
import { PageNumberBox } from './page-number-box.tsx';
import { BookText } from '../../../components/book-text.tsx';
import { CiteButton } from './cite-button.tsx';

const zoomOptions = ZOOM_LEVELS.map((level) => ({ value: level, label: `${level}%` }));

export interface ReaderToolbarProps {
  /** The id of the directory panel the directory button shows and hides. */
  directoryPanelId: string;
  directoryOpen: boolean;
  onToggleDirectory: () => void;
  pageNumber: number;
  total: number;
  onGoToPage: (page: number) => void;
  onMove: (how: PageMove) => void;
  book: ReaderData['book'];
  volume: ReaderData['volume'];
  volumes: ReaderData['volumes'];
  onVolumeChange: (fascicleId: number) => void;
  /** The zoom of the mode shown; null: fitted. */
  zoomPercent: number | null;
  onZoomStep: (direction: 'in' | 'out') => void;
  onZoomChange: (percent: number) => void;
  /** In-book search, offered in the reading room only. */
  readingRoom: boolean;
  searchText: string;
  onSearch: (text: string) => void;
  /** The reader's notes button (useReaderNotes). */
  notesButton: ReactNode;
  /** The page shown, if the volume has any. */
  page: ReaderData['pages'][number] | undefined;
  signedIn: boolean;
  /** Catalogue staff may open the page's text for proofreading. */
  canProofread: boolean;
  mode: DisplayMode;
  onModeChange: (mode: DisplayMode) => void;
}

export function ReaderToolbar(props: ReaderToolbarProps) {
  const { directoryOpen, pageNumber, total, onMove, volume, zoomPercent, onZoomStep, page, signedIn } = props;
  const atFirst = pageNumber <= 1;
  const atLast = pageNumber >= total;
  return (
    <div className="reader-toolbar" role="group" aria-label="阅读工具栏">
      <Button
        icon={directoryOpen ? <MenuFoldOutlined aria-hidden /> : <MenuUnfoldOutlined aria-hidden />}
        aria-expanded={directoryOpen}
        aria-controls={props.directoryPanelId}
        onClick={props.onToggleDirectory}
      >
        目录
      </Button>

      {/* Right to left: the next page lies to the left, as in the book. */}
      <div className="reader-pager" role="group" aria-label="翻页">
        <Button icon={<DoubleLeftOutlined aria-hidden />} onClick={() => onMove('last')} disabled={atLast}>
          <span className="reader-button-text">尾页</span>
        </Button>
        <Button icon={<LeftOutlined aria-hidden />} onClick={() => onMove('next')} disabled={atLast}>
          <span className="reader-button-text">下一页</span>
        </Button>
        <PageNumberBox key={pageNumber} page={pageNumber} total={total} onGo={props.onGoToPage} />
        <Button onClick={() => onMove('previous')} disabled={atFirst}>
          <span className="reader-button-text">上一页</span>
          <RightOutlined aria-hidden />
        </Button>
        <Button onClick={() => onMove('first')} disabled={atFirst}>
          <span className="reader-button-text">首页</span>
          <DoubleRightOutlined aria-hidden />
        </Button>
      </div>

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
        <Tooltip title="缩小（-）">
          <Button
            icon={<MinusOutlined aria-hidden />}
            aria-label="缩小"
            onClick={() => onZoomStep('out')}
            disabled={zoomPercent != null && zoomPercent <= ZOOM_LEVELS[0]!}
          />
        </Tooltip>
        <Select<number>
          aria-label="缩放比例"
          className="reader-zoom-select"
          value={zoomPercent ?? undefined}
          placeholder="适合"
          options={zoomOptions}
          labelRender={({ value }) => `${String(value)}%`}
          onChange={props.onZoomChange}
        />
        <Tooltip title="放大（+）">
          <Button
            icon={<PlusOutlined aria-hidden />}
            aria-label="放大"
            onClick={() => onZoomStep('in')}
            disabled={zoomPercent != null && zoomPercent >= ZOOM_LEVELS[ZOOM_LEVELS.length - 1]!}
          />
        </Tooltip>
      </div>

      {props.readingRoom && <InBookSearchBox compact initial={props.searchText} onSearch={props.onSearch} />}

      {props.notesButton}
      {page && signedIn && <ReaderDownloadMenu imageId={page.imageId} fascicleId={volume.fascicleId} />}
      {page && signedIn && (
        <AddToPrint
          imageId={page.imageId}
          fascicleId={volume.fascicleId}
          pageNumber={pageNumber}
          total={total}
        />
      )}

      {page && <CiteButton book={props.book} volume={volume} page={page} />}

      {props.canProofread && page && (
        <Link className="reader-proofread" to={`/OCRPage?imgid=${page.imageId}`}>
          校对文字
        </Link>
      )}

      <Segmented<DisplayMode>
        aria-label="显示模式"
        options={DISPLAY_MODES.map((option) => ({ value: option.value, label: option.label }))}
        value={props.mode}
        onChange={props.onModeChange}
      />
    </div>
  );
}
