import type { ComponentType } from 'react';
import { CHANNELS, type Channel } from '@guji/shared';
import { ChangePasswordChannel } from './components/change-password-channel.tsx';
import { ProfileChannel } from './components/profile-channel.tsx';
import {
  CollectionChannel,
  CommentChannel,
  DownloadChannel,
  NotationChannel,
  TrackChannel,
  VipChannel,
} from '../personal/index.ts';
import { AppointmentChannel } from '../personal/index.ts';
import { AppointmentAuditChannel } from '../personal/index.ts';
import { PrintChannel } from '../print/index.ts';
import { AdminPrintChannel } from '../print/index.ts';
import { OwnBookAuditChannel } from '../own/index.ts';

/**
 * The personal-area channels; the side menu shows a channel only when it is here and the user may
 * open it.
 */
export const CHANNEL_COMPONENTS: Partial<Record<Channel, ComponentType>> = {
  Infor: ProfileChannel,
  ChangePassword: ChangePasswordChannel,
  Download: DownloadChannel,
  Collection: CollectionChannel,
  Comment: CommentChannel,
  Notation: NotationChannel,
  Track: TrackChannel,
  Vip: VipChannel,
  Print: PrintChannel,
  AdminPrint: AdminPrintChannel,
  Appointment: AppointmentChannel,
  AppointmentAudit: AppointmentAuditChannel,
  OwnBookAudit: OwnBookAuditChannel,
};

export const IMPLEMENTED_CHANNELS: readonly Channel[] = CHANNELS.filter(
  (channel) => channel in CHANNEL_COMPONENTS,
);
