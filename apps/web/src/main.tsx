// Styles first, so that their order in the built sheet is this one: the global sheets, then each
// feature's own (also imported by its index.ts). App.tsx loads most screens from their page files,
// not through index.ts, so the feature sheets are imported here too.
import './styles/base.css';
import './styles/layout.css';
import './styles/home.css';
import './styles/components.css';
import './features/catalog/catalog.css';
import './features/catalog/catalog-search.css';
import './features/reader/reader-side.css';
import './features/reader/reader.css';
import './features/reader/reader-tools.css';
import './features/reader/text-pane.css';
import './features/account/account.css';
import './features/ocr/ocr.css';
import './features/personal/personal.css';
import './features/print/print.css';
import './features/own/own.css';
import './features/admin/admin.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
