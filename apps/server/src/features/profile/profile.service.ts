import { randomBytes } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { AVATAR_EXTENSIONS, LIMITS, MSG, type UpdateProfileRequest } from '@guji/shared';
import type { UserRepository } from '../accounts/user.repository.ts';
import type { UserUpdate } from '../../db/schema.ts';
import type { Transact } from '../../db/query.ts';
import type { UserWithRoles } from '../../lib/user-view.ts';
import type { FileStorage } from '../../storage/storage.ts';
import { badRequest, conflict, notFound, unauthorized } from '../../errors.ts';
import type { SmsService } from '../accounts/sms.service.ts';
import { AUTH_MESSAGES } from '../accounts/auth.service.ts';
import { decodeBmp } from './bmp.ts';
import { sniffImage } from '../../lib/image-sniff.ts';

/** Largest avatar accepted in pixels, against decompression bombs. */
const AVATAR_MAX_PIXELS = 40_000_000;
const AVATAR_SIZE = 360;

/** "My information": one profile field at a time, and the avatar. */
export class ProfileService {
  constructor(
    private readonly users: UserRepository,
    private readonly sms: SmsService,
    private readonly storage: FileStorage,
    private readonly transact: Transact,
  ) {}

  async update(userId: number, change: UpdateProfileRequest): Promise<UserWithRoles> {
    const changes = await this.changesOf(userId, change);
    await this.transact((tx) => this.users.update(userId, changes, tx));
    return this.mustFind(userId);
  }

  /** The column one field's change writes, after the checks a new phone number needs. */
  private async changesOf(userId: number, change: UpdateProfileRequest): Promise<UserUpdate> {
    switch (change.field) {
      case 'nickName':
        return { nick_name: change.value };
      case 'realName':
        return { real_name: change.value };
      case 'email':
        return { email: change.value };
      case 'idCard':
        return { id_card: change.value.toUpperCase() };
      case 'phone': {
        const owner = await this.users.findByPhone(change.value);
        if (owner && owner.id !== userId) throw conflict('PHONE_TAKEN', AUTH_MESSAGES.phoneTaken);
        await this.sms.check(change.value, 'profile', change.phoneCode, true);
        return { phone: change.value };
      }
    }
  }

  /**
   * Stores a new avatar: jpg, jpeg, bmp or png by name *and* content, at most 2 MB. Every avatar is
   * decoded and re-encoded to a square PNG, which drops metadata and anything appended to the file
   * (BMP, which sharp cannot read, through the strict decoder in bmp.ts).
   */
  async setAvatar(userId: number, fileName: string, data: Buffer): Promise<UserWithRoles> {
    const ext = fileName.split('.').pop()?.toLowerCase() ?? '';
    const kind = sniffImage(data);
    const allowed = (AVATAR_EXTENSIONS as readonly string[]).includes(ext);
    if (!allowed || data.length > LIMITS.avatarMaxBytes || !kind || !['jpeg', 'png', 'bmp'].includes(kind)) {
      throw badRequest('AVATAR_INVALID', MSG.avatarInvalid);
    }
    const stored = await toAvatarPng(data, kind);
    if (!stored) throw badRequest('AVATAR_INVALID', MSG.avatarInvalid);
    const user = await this.mustFind(userId);
    const file = `${userId}-${randomBytes(12).toString('hex')}.png`;
    await this.storage.put(`avatars/${file}`, stored);
    await this.transact((tx) => this.users.update(userId, { avatar_file: file }, tx));
    if (user.avatar_file) await this.storage.delete(`avatars/${user.avatar_file}`);
    return this.mustFind(userId);
  }

  /**
   * An avatar's bytes and content type. Names are random, so knowing one is the permission. BMP
   * avatars stored as sent by earlier versions are served re-encoded as PNG, never as stored.
   */
  async readAvatar(file: string): Promise<{ data: Buffer; type: string }> {
    if (!/^\d+-[0-9a-f]{24}\.(png|bmp)$/.test(file)) throw notFound('头像不存在');
    const data = await this.storage.get(`avatars/${file}`);
    if (!data) throw notFound('头像不存在');
    if (!file.endsWith('.bmp')) return { data, type: 'image/png' };
    const png = await toAvatarPng(data, 'bmp');
    if (!png) throw notFound('头像不存在');
    return { data: png, type: 'image/png' };
  }

  private async mustFind(userId: number): Promise<UserWithRoles> {
    const user = await this.users.findById(userId);
    if (!user) throw unauthorized();
    return user;
  }
}

/** A JPEG, PNG or BMP decoded (pixel-limited) and re-encoded as the square avatar PNG; undefined if unreadable. */
async function toAvatarPng(data: Buffer, kind: string): Promise<Buffer | undefined> {
  try {
    let input: Sharp;
    if (kind === 'bmp') {
      const bmp = decodeBmp(data, AVATAR_MAX_PIXELS);
      if (!bmp) return undefined;
      input = sharp(bmp.pixels, { raw: { width: bmp.width, height: bmp.height, channels: 3 } });
    } else {
      input = sharp(data, { limitInputPixels: AVATAR_MAX_PIXELS }).rotate();
    }
    return await input.resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' }).png().toBuffer();
  } catch {
    return undefined;
  }
}
