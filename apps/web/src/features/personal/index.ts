/** What the personal feature offers the rest of the app; everything else in the folder is its own. */
import './personal.css';
export { AppointmentAuditChannel } from './channels/appointment-audit-channel.tsx';
export { AppointmentChannel } from './channels/appointment-channel.tsx';
export { appointmentPathFor } from './appointment-link.ts';
export {
  CollectionChannel,
  CommentChannel,
  DownloadChannel,
  NotationChannel,
  TrackChannel,
  VipChannel,
} from './channels/library-channels.tsx';
export { BookComments } from './components/book-comments.tsx';
export { CollectButton } from './components/collect-button.tsx';
export { ReaderDownloadMenu, useFootprintReport, useReaderNotes } from './components/reader-tools.tsx';
