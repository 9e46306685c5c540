import { AVATAR_EXTENSIONS, LIMITS } from '@guji/shared';

/** Avatar files the server takes (spec §5): jpg, jpeg, bmp or png, at most 2 MB. */
export function isAcceptableAvatar(file: { name: string; size: number }): boolean {
  const dot = file.name.lastIndexOf('.');
  if (dot < 0) return false;
  const extension = file.name.slice(dot + 1).toLowerCase();
  const allowed: readonly string[] = AVATAR_EXTENSIONS;
  return allowed.includes(extension) && file.size > 0 && file.size <= LIMITS.avatarMaxBytes;
}

/** The `accept` attribute of the avatar file picker. */
export const AVATAR_ACCEPT = AVATAR_EXTENSIONS.map((extension) => `.${extension}`).join(',');
