import { useState } from 'react';
import { Input } from 'antd';
import { clampPageNumber } from '@guji/shared';

export interface PageNumberBoxProps {
  page: number;
  total: number;
  onGo: (page: number) => void;
}

/**
 * The page box of spec §5: digits only; Enter or leaving the box goes to the page, clamped to
 * 1..total, empty or 0 giving 1. Render it with `key={page}` so it shows each new page.
 */
export function PageNumberBox({ page, total, onGo }: PageNumberBoxProps) {
  const [draft, setDraft] = useState(String(page));
  const commit = () => {
    const target = clampPageNumber(draft, total);
    setDraft(String(target));
    if (target !== page) onGo(target);
  };
  return (
    <span className="page-number-box">
      <Input
        aria-label="页码"
        inputMode="numeric"
        autoComplete="off"
        value={draft}
        onChange={(event) => setDraft(event.target.value.replace(/\D/g, ''))}
        onPressEnter={commit}
        onBlur={commit}
        maxLength={6}
        className="page-number-input"
      />
      <span className="page-number-total">
        / <span className="page-number-word">共 </span>
        {total}
        <span className="page-number-word"> 页</span>
      </span>
    </span>
  );
}
