/** What the own feature offers the rest of the app; everything else in the folder is its own. */
import './own.css';
export { OwnBookAuditChannel } from './own-audit-channel.tsx';
