import { CHANNELS, type Channel } from '@guji/shared';

/** Whether a path segment names a personal-area channel. */
export function isChannel(value: string | undefined): value is Channel {
  return (CHANNELS as readonly string[]).includes(value ?? '');
}

/** Channels for the side menu: permitted to the user and built in this version, in menu order. */
export function menuChannels(permitted: readonly Channel[], implemented: readonly Channel[]): Channel[] {
  return CHANNELS.filter((channel) => permitted.includes(channel) && implemented.includes(channel));
}

/** The channel a /PersonalPage/{channel} address opens, or null for the 404 page. */
export function resolveChannel(
  segment: string | undefined,
  permitted: readonly Channel[],
  implemented: readonly Channel[],
): Channel | null {
  if (!isChannel(segment)) return null;
  return menuChannels(permitted, implemented).includes(segment) ? segment : null;
}
