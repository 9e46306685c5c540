/** Whether the reader's side panel is shown, and which of its tabs. */
import { useState } from 'react';
import type { SideTab } from '../components/reader-side-panel.tsx';

/** Wide screens open the reader with its side panel shown; phones give the page the room. */
function wideScreen(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 768px)').matches;
}

/** The side panel's state: shown at first on a wide screen; on a phone it gives way once something is chosen. */
export function useSidePanel() {
  const [open, setOpen] = useState(wideScreen);
  const [tab, setTab] = useState<SideTab>('directory');
  /** On a phone the side panel covers the page: get it out of the way once something is chosen there. */
  const closeOnPhone = () => {
    if (!wideScreen()) setOpen(false);
  };
  return { open, setOpen, tab, setTab, closeOnPhone };
}
