/** The reader's keyboard: page turning and zoom keys, unless the focused control takes the key itself. */
import { useEffect, useRef } from 'react';
import { keyCommand, type KeyCommand } from '../reader-navigation.ts';

/**
 * Calls `onCommand` (the latest one given) for each reader key pressed anywhere on the page, except
 * with a modifier held or when the focused control owns the key.
 */
export function useReaderKeys(onCommand: (command: KeyCommand) => void): void {
  const commands = useRef<(command: KeyCommand) => void>(() => undefined);
  useEffect(() => {
    commands.current = onCommand;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (ownsKeys(event.target)) return;
      const command = keyCommand(event.key);
      if (!command) return;
      event.preventDefault();
      commands.current(command);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

/**
 * Whether a key event belongs to the focused control (text boxes, lists, the directory tree, radio
 * groups) rather than to page turning.
 */
function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return (
    target.closest(
      'input, textarea, select, [contenteditable="true"], [role="tree"], [role="listbox"], [role="combobox"], [role="radiogroup"], [role="slider"], [role="menu"]',
    ) !== null
  );
}
