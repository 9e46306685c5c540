import { useCallback, useEffect, useState } from 'react';
import { loadConverter, type TextConverter } from '../../language/index.ts';
import { readPaneSimplified, storePaneSimplified } from '../pane-simplified.ts';

function localStorageOrNone(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The text pane's 「简体显示」 choice and, while it is on and loaded, the t→s converter to show the
 * pane's text with (the same lazy opencc chunk the interface toggle uses).
 */
export function usePaneSimplified(): {
  on: boolean;
  setOn: (on: boolean) => void;
  convert: TextConverter | null;
} {
  const [on, setOnState] = useState(() => readPaneSimplified(localStorageOrNone()));
  const [convert, setConvert] = useState<TextConverter | null>(null);
  useEffect(() => {
    if (!on) return;
    let cancelled = false;
    loadConverter('s').then(
      (loaded) => {
        if (!cancelled) setConvert(() => loaded);
      },
      () => undefined, // The chunk failed to load (offline): the text stays as recorded.
    );
    return () => {
      cancelled = true;
    };
  }, [on]);
  const setOn = useCallback((next: boolean) => {
    storePaneSimplified(localStorageOrNone(), next);
    setOnState(next);
  }, []);
  return { on, setOn, convert: on ? convert : null };
}
