import { Button, ConfigProvider, Segmented, Switch } from 'antd';
import { HoverTip } from '../../../components/hover-tip.tsx';
import { ZOOM_LEVELS } from '@guji/shared';
import { EditOutlined, FileTextOutlined } from '@ant-design/icons';
import type { useTextView } from '../hooks/use-text-view.ts';
import { TEXT_SIZE, type TextViewName, type TextWriting } from '../text-view.ts';

const VIEWS: { value: TextViewName; label: string }[] = [
  { value: 'reading', label: '阅读' },
  { value: 'layout', label: '版式' },
];

const WRITINGS: { value: TextWriting; label: string }[] = [
  { value: 'vertical', label: '竖排' },
  { value: 'horizontal', label: '横排' },
];

export interface TextPaneBarProps {
  textView: ReturnType<typeof useTextView>;
  simplified: { on: boolean; setOn: (on: boolean) => void };
  /** 复制全文; null while there is no text to copy. */
  onCopy: (() => void) | null;
  /** The 版式 view's zoom and its steps (A−/A+ there change the drawn page's size). */
  layoutZoom: { percent: number; step: (direction: 'in' | 'out') => void };
  /** 纠错 on the characters chosen (signed-in readers); null hides it. */
  onCorrect?: (() => void) | null;
}

/**
 * The text pane's own options: the view (阅读 / 版式), for reading text its direction and size, for the
 * page as laid out its size (A−/A+ step its zoom);
 * 「简体显示」; 复制全文 (the text in reading order, then the page's citation); 纠错 for signed-in readers.
 * Wraps on a narrow pane.
 */
export function TextPaneBar({ textView, simplified, onCopy, layoutZoom, onCorrect }: TextPaneBarProps) {
  return (
    <ConfigProvider componentSize="small">
      <div className="text-pane-bar">
        <Segmented<TextViewName>
          aria-label="文字视图"
          options={VIEWS}
          value={textView.view}
          onChange={textView.setView}
        />
        {textView.view === 'layout' && (
          <SizeSteps
            atSmallest={layoutZoom.percent <= ZOOM_LEVELS[0]!}
            atLargest={layoutZoom.percent >= ZOOM_LEVELS[ZOOM_LEVELS.length - 1]!}
            onStep={(direction) => layoutZoom.step(direction < 0 ? 'out' : 'in')}
          />
        )}
        {textView.view === 'reading' && (
          <>
            <Segmented<TextWriting>
              aria-label="文字方向"
              options={WRITINGS}
              value={textView.writing}
              onChange={textView.setWriting}
            />
            <SizeSteps
              atSmallest={textView.size <= TEXT_SIZE.min}
              atLargest={textView.size >= TEXT_SIZE.max}
              onStep={textView.stepSize}
            />
          </>
        )}
        <label className="text-pane-option">
          <Switch checked={simplified.on} onChange={simplified.setOn} />
          简体显示
        </label>
        <HoverTip title="复制本页全部文字（按阅读顺序，每列一行）及本页引用">
          <Button icon={<FileTextOutlined aria-hidden />} disabled={!onCopy} onClick={onCopy ?? undefined}>
            复制全文
          </Button>
        </HoverTip>
        {onCorrect && (
          <HoverTip title="选中（或点按）要纠正的字后，提出改正；编目人员审核后生效">
            <Button icon={<EditOutlined aria-hidden />} onClick={onCorrect}>
              纠错
            </Button>
          </HoverTip>
        )}
      </div>
    </ConfigProvider>
  );
}

/** A− and A+: one size step smaller (-1) or larger (+1), each off at its end of the range. */
function SizeSteps(props: { atSmallest: boolean; atLargest: boolean; onStep: (direction: -1 | 1) => void }) {
  return (
    <span className="text-pane-size">
      <HoverTip title="缩小字号">
        <Button aria-label="A− 缩小字号" disabled={props.atSmallest} onClick={() => props.onStep(-1)}>
          A−
        </Button>
      </HoverTip>
      <HoverTip title="放大字号">
        <Button aria-label="A+ 放大字号" disabled={props.atLargest} onClick={() => props.onStep(1)}>
          A+
        </Button>
      </HoverTip>
    </span>
  );
}
