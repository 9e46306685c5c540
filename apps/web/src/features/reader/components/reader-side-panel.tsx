import type { ReactNode } from 'react';

export type SideTab = 'directory' | 'thumbnails' | 'search';

const TAB_LABELS: Record<SideTab, string> = { directory: '目录', thumbnails: '缩略图', search: '检索结果' };

export interface ReaderSidePanelProps {
  id: string;
  tab: SideTab;
  onTab: (tab: SideTab) => void;
  /** The panels offered (search only while a search is open), each with its content. */
  panels: Partial<Record<SideTab, ReactNode>>;
}

/**
 * The reader's side panel beside (never over, on a wide screen) the page: the volume's directory, its
 * thumbnails, and the hits of an in-book search, as tabs.
 */
export function ReaderSidePanel({ id, tab, onTab, panels }: ReaderSidePanelProps) {
  const tabs = (Object.keys(TAB_LABELS) as SideTab[]).filter((name) => panels[name] !== undefined);
  const shown = panels[tab] !== undefined ? tab : 'directory';
  return (
    <aside id={id} className="reader-side" aria-label="阅读侧栏">
      <div className="reader-side-tabs" role="tablist" aria-label="侧栏内容">
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`${id}-tab-${name}`}
            aria-selected={name === shown}
            aria-controls={`${id}-panel`}
            tabIndex={name === shown ? 0 : -1}
            onClick={() => onTab(name)}
          >
            {TAB_LABELS[name]}
          </button>
        ))}
      </div>
      <div
        className="reader-side-panel"
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${shown}`}
      >
        {panels[shown]}
      </div>
    </aside>
  );
}
