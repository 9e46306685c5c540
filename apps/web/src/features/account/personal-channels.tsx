import type { ComponentType } from 'react';
import { CHANNELS, type Channel } from '@guji/shared';
import { ChangePasswordChannel } from './components/change-password-channel.tsx';
import { ProfileChannel } from './components/profile-channel.tsx';

/**
 * The personal-area channels this build implements. Later features add theirs here (Collection,
 * Download, Print, …); the side menu shows a channel only when it is here and the user may open it.
 */
export const CHANNEL_COMPONENTS: Partial<Record<Channel, ComponentType>> = {
  Infor: ProfileChannel,
  ChangePassword: ChangePasswordChannel,
};

export const IMPLEMENTED_CHANNELS: readonly Channel[] = CHANNELS.filter(
  (channel) => channel in CHANNEL_COMPONENTS,
);
