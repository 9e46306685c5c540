import { useCallback, useState } from 'react';
import {
  readTextView,
  stepTextSize,
  storeTextView,
  type TextView,
  type TextViewName,
  type TextWriting,
} from '../text-view.ts';

function localStorageOrNone(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** The text pane's view, direction and size as the reader chose them, remembered across visits. */
export function useTextView(): TextView & {
  setView: (view: TextViewName) => void;
  setWriting: (writing: TextWriting) => void;
  /** One size step smaller (-1) or larger (+1). */
  stepSize: (direction: -1 | 1) => void;
} {
  const [state, setState] = useState<TextView>(() => readTextView(localStorageOrNone()));
  const change = useCallback((update: (old: TextView) => TextView) => {
    setState((old) => {
      const next = update(old);
      storeTextView(localStorageOrNone(), next);
      return next;
    });
  }, []);
  const setView = useCallback((view: TextViewName) => change((old) => ({ ...old, view })), [change]);
  const setWriting = useCallback((writing: TextWriting) => change((old) => ({ ...old, writing })), [change]);
  const stepSize = useCallback(
    (direction: -1 | 1) => change((old) => ({ ...old, size: stepTextSize(old.size, direction) })),
    [change],
  );
  return { ...state, setView, setWriting, stepSize };
}
