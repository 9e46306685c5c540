/**
 * The text pane's side of the character links: which character the pointer, a tap or focus is on,
 * the character linked from the image (highlighted and brought into view) and the characters of the
 * text selection. Each character is an element with `data-word` (its WordKey) inside the pane.
 */
import {
  useEffect,
  useLayoutEffect,
  useRef,
  type PointerEvent,
  type RefObject,
  type SyntheticEvent,
} from 'react';
import type { WordKey } from '../text-links.ts';

/** How long the selection rests before its characters are reported. */
const SELECTION_REST_MS = 50;

export interface TextPaneLinkOptions {
  linked: WordKey | null | undefined;
  onLink: ((key: WordKey | null) => void) | undefined;
  onSelect: ((keys: WordKey[]) => void) | undefined;
}

/** The key of the character an event happened on, if any. */
function keyAt(target: EventTarget | null): WordKey | null {
  return target instanceof Element
    ? (target.closest('[data-word]')?.getAttribute('data-word') ?? null)
    : null;
}

/** Whether the range holds part of a character's text (not merely touches its start or end). */
function holdsChar(range: Range, char: Element): boolean {
  if (!range.intersectsNode(char)) return false;
  const text = char.firstChild;
  const endsAtItsStart =
    (range.endContainer === char || range.endContainer === text) && range.endOffset === 0;
  const startsAtItsEnd =
    (range.startContainer === char && range.startOffset === char.childNodes.length) ||
    (text != null && range.startContainer === text && range.startOffset === (text.textContent ?? '').length);
  return !endsAtItsStart && !startsAtItsEnd;
}

/** The characters of the selection inside `root`, in the order of the page (reading order). */
export function selectedKeys(root: Element, selection: Selection | null): WordKey[] {
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return [];
  const ranges: Range[] = [];
  for (let i = 0; i < selection.rangeCount; i++) {
    const range = selection.getRangeAt(i);
    if (range.intersectsNode(root)) ranges.push(range);
  }
  if (ranges.length === 0) return [];
  const keys: WordKey[] = [];
  for (const char of root.querySelectorAll('[data-word]')) {
    if (ranges.some((range) => holdsChar(range, char))) keys.push(char.getAttribute('data-word')!);
  }
  return keys;
}

/** Scrolls `root` so that `element` is in view, centred, unless it is wholly in view already. */
function bringIntoView(root: HTMLElement, element: Element): void {
  const box = element.getBoundingClientRect();
  const pane = root.getBoundingClientRect();
  const left = pane.left + root.clientLeft;
  const top = pane.top + root.clientTop;
  const inside =
    box.left >= left &&
    box.right <= left + root.clientWidth &&
    box.top >= top &&
    box.bottom <= top + root.clientHeight;
  if (inside) return;
  root.scrollBy({
    left: box.left + box.width / 2 - (left + root.clientWidth / 2),
    top: box.top + box.height / 2 - (top + root.clientHeight / 2),
  });
}

/**
 * Links the characters inside the scrolled pane `rootRef`; returns the handlers for the element that
 * holds the text. `content` changes whenever other characters are shown (page, view, 简体显示).
 */
export function useTextPaneLinks(
  rootRef: RefObject<HTMLElement | null>,
  { linked, onLink, onSelect }: TextPaneLinkOptions,
  content: unknown,
) {
  // The latest callbacks, so that the listeners stay put.
  const callbacks = useRef({ linked, onLink, onSelect });
  useEffect(() => {
    callbacks.current = { linked, onLink, onSelect };
  });
  /** The key this pane last reported: when it comes back as `linked`, it needs no scrolling. */
  const reported = useRef<WordKey | null>(null);
  const report = (key: WordKey | null) => {
    reported.current = key;
    callbacks.current.onLink?.(key);
  };

  // The linked character's mark, set on the element itself: hovering does not re-render the text.
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const element = linked ? root.querySelector(`[data-word="${linked}"]`) : null;
    for (const old of root.querySelectorAll('.is-linked'))
      if (old !== element) old.classList.remove('is-linked');
    element?.classList.add('is-linked');
  });
  // A character linked from the image is brought into view.
  useEffect(() => {
    const root = rootRef.current;
    if (!root || !linked || linked === reported.current) return;
    const element = root.querySelector(`[data-word="${linked}"]`);
    if (element) bringIntoView(root, element);
  }, [rootRef, linked, content]);

  // The characters of the selection, reported once it rests; [] when it leaves the pane.
  const lastSelected = useRef('');
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const root = rootRef.current;
      if (!root) return;
      const keys = selectedKeys(root, document.getSelection());
      const joined = keys.join(' ');
      if (joined === lastSelected.current) return;
      lastSelected.current = joined;
      callbacks.current.onSelect?.(keys);
    };
    const onChange = () => {
      clearTimeout(timer);
      timer = setTimeout(check, SELECTION_REST_MS);
    };
    document.addEventListener('selectionchange', onChange);
    // Other characters shown: the selection may now hold others, or none.
    onChange();
    return () => {
      clearTimeout(timer);
      document.removeEventListener('selectionchange', onChange);
    };
  }, [rootRef, content]);

  return {
    onPointerOver: (event: SyntheticEvent) => {
      const key = keyAt(event.target);
      if (key && key !== callbacks.current.linked) report(key);
    },
    // A finger lifted leaves the text at once: a tapped character stays linked until the next tap.
    onPointerLeave: (event: PointerEvent) => {
      if (event.pointerType !== 'touch') report(null);
    },
    onClick: (event: SyntheticEvent) => report(keyAt(event.target)),
    onFocus: (event: SyntheticEvent) => {
      const key = keyAt(event.target);
      if (key) report(key);
    },
  };
}
