import { describe, expect, it } from 'vitest';
import { readSsoLink } from './sso.ts';

const signature = 'a'.repeat(64);

describe('readSsoLink', () => {
  it('reads the five parameters and keeps the rest of the query', () => {
    const link = readSsoLink(
      `?catalogId=7&loginName=reader&phoneNum=13800138000&expires=1900000000&nonce=abcdef123456&signature=${signature}`,
    );
    expect(link).toEqual({
      request: {
        loginName: 'reader',
        phoneNum: '13800138000',
        expires: 1900000000,
        nonce: 'abcdef123456',
        signature,
      },
      remainingSearch: '?catalogId=7',
    });
  });

  it('drops a loginPassword parameter without using it', () => {
    const link = readSsoLink(
      `?loginName=r&phoneNum=1&expires=1&nonce=n&signature=${signature}&loginPassword=secret`,
    );
    expect(link?.remainingSearch).toBe('');
    expect(JSON.stringify(link)).not.toContain('secret');
  });

  it('ignores links missing any parameter', () => {
    expect(readSsoLink('?loginName=reader&phoneNum=13800138000')).toBeNull();
    expect(readSsoLink(`?loginName=r&phoneNum=1&expires=1&nonce=n`)).toBeNull();
    expect(readSsoLink(`?loginName=r&loginPassword=secret`)).toBeNull();
    expect(readSsoLink('')).toBeNull();
  });
});
