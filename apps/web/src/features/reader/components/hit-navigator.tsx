import { Button } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';

export interface HitNavigatorProps {
  /** The occurrence visited on this page (1-based) and how many the page has. */
  occurrence: number;
  occurrences: number;
  onNext: (() => void) | null;
  onPrevious: (() => void) | null;
}

/**
 * Steps through the occurrences of an in-book search, turning pages and panning the image to each.
 * Right to left like the book: the next occurrence lies to the left.
 */
export function HitNavigator({ occurrence, occurrences, onNext, onPrevious }: HitNavigatorProps) {
  return (
    <div className="reader-hit-nav" role="group" aria-label="检索命中">
      <Button
        size="small"
        icon={<LeftOutlined aria-hidden />}
        onClick={onNext ?? undefined}
        disabled={!onNext}
      >
        下一处
      </Button>
      <span className="reader-hit-count" aria-live="polite">
        {occurrences > 0 ? `本页第 ${occurrence} / ${occurrences} 处` : '本页无命中'}
      </span>
      <Button size="small" onClick={onPrevious ?? undefined} disabled={!onPrevious}>
        上一处
        <RightOutlined aria-hidden />
      </Button>
    </div>
  );
}
