/** The reader's refusal notice: shown once, then the redirect it names (DESIGN.md §7). */
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../../components/toast.ts';
import type { ReaderRefusal } from '../reader-refusal.ts';

/** Shows a refusal's notice once and then goes where it says (DESIGN.md §7). */
export function useRefusalNotice(refusal: ReaderRefusal | null): void {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  });
  useEffect(() => {
    if (!refusal) return;
    if (refusal.tone === 'warning') toast.warning(refusal.notice);
    else toast.error(refusal.notice);
    const target = refusal.to;
    if (!target) return;
    const timer = window.setTimeout(
      () => void navigateRef.current(target, { replace: true }),
      refusal.delayMs,
    );
    return () => window.clearTimeout(timer);
  }, [refusal]);
}
