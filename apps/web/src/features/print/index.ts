/** What the print feature offers the rest of the app; everything else in the folder is its own. */
import './print.css';
export { AddToPrint } from './components/add-to-print.tsx';
export { AdminPrintChannel } from './components/admin-print-channel.tsx';
export { PrintChannel } from './components/print-channel.tsx';
