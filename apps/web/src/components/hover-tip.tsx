import { Tooltip, type TooltipProps } from 'antd';

/** Whether the screen has a pointer that hovers (a mouse), not a finger. */
const canHover = () => typeof window === 'undefined' || window.matchMedia('(hover: hover)').matches;

/**
 * A tooltip for a mouse or the keyboard. On a touch screen a tap would open it and leave it standing over
 * the page (nothing hovers away), so there it is not shown: the control's own name says what it does.
 */
export function HoverTip({ title, children }: Pick<TooltipProps, 'title' | 'children'>) {
  return (
    <Tooltip title={title} trigger={canHover() ? ['hover', 'focus'] : []}>
      {children}
    </Tooltip>
  );
}
