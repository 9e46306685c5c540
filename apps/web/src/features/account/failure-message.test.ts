import { describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { withReason } from './failure-message.ts';

describe('withReason', () => {
  it('appends the server reason to the field failure', () => {
    expect(withReason(MSG.nicknameFailed, '昵称已被使用')).toBe('修改昵称失败：昵称已被使用');
  });

  it('shows the failure alone when there is no distinct reason', () => {
    expect(withReason(MSG.modifyFailed, null)).toBe(MSG.modifyFailed);
    expect(withReason(MSG.modifyFailed, '')).toBe(MSG.modifyFailed);
    expect(withReason(MSG.modifyFailed, MSG.modifyFailed)).toBe(MSG.modifyFailed);
  });
});
