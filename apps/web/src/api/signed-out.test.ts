import { describe, expect, it } from 'vitest';
import { isSignedOutError } from './signed-out.ts';

describe('isSignedOutError', () => {
  it('treats HTTP 401 and body codes 310 and 401 as an ended session', () => {
    expect(isSignedOutError(401, 'UNAUTHENTICATED')).toBe(true);
    expect(isSignedOutError(200, '310')).toBe(true);
    expect(isSignedOutError(403, '401')).toBe(true);
  });

  it('leaves other failures to the error toast', () => {
    expect(isSignedOutError(403, 'FORBIDDEN')).toBe(false);
    expect(isSignedOutError(500, undefined)).toBe(false);
    expect(isSignedOutError(400, '4010')).toBe(false);
  });
});
