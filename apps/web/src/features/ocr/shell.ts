/** The OCR feature's page for the application's shell (loaded on first visit). */
import { lazy } from 'react';

export const OcrPage = lazy(() => import('./pages/ocr-page.tsx').then((m) => ({ default: m.OcrPage })));
