import { lazy, Suspense, useState } from 'react';
import { MSG, type OcrJson } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { correctionRange, type CorrectionRange, type WordKey } from '../text-links.ts';

/** The dialog's code (a form) loads when it is first opened: the reader's first view does not need it. */
const CorrectionDialog = lazy(() =>
  import('../components/correction-dialog.tsx').then((m) => ({ default: m.CorrectionDialog })),
);

/**
 * 纠错 from the text pane (issue 32 part 5): for a signed-in reader, the pane's button opens the
 * correction dialog on the characters selected (one unbroken run of one column) or the one tapped; with
 * nothing chosen it says how to choose. The dialog belongs to its page: turning the page closes it.
 */
export function useCorrecting(
  ocr: OcrJson | null,
  imageId: number | null,
  /** The character tapped in the text (a selection, read when 纠错 is pressed, comes first). */
  linked: WordKey | null,
  signedIn: boolean,
) {
  const [open, setOpen] = useState<{ imageId: number; range: CorrectionRange } | null>(null);
  const onCorrect =
    signedIn && ocr && imageId != null
      ? (selected: WordKey[]) => {
          const range = correctionRange(ocr, selected, linked);
          if (range) setOpen({ imageId, range });
          else toast.warning(MSG.correctionNoSelection);
        }
      : null;
  const dialog =
    open && open.imageId === imageId ? (
      <Suspense fallback={null}>
        <CorrectionDialog imageId={open.imageId} range={open.range} onClose={() => setOpen(null)} />
      </Suspense>
    ) : null;
  return { onCorrect, dialog };
}
