/** What the ocr feature offers the rest of the app; everything else in the folder is its own. */
import './ocr.css';
export { CorrectionQueue } from './components/correction-queue.tsx';
