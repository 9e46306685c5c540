import type { ReactNode } from 'react';

/**
 * A wide table's box: on a narrow screen the table scrolls sideways inside it, not the page. The box
 * is a named region that takes the keyboard focus, so the scrolling also works without a mouse (a
 * table of plain text has nothing else to focus).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
