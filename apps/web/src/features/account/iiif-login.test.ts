import { describe, expect, it } from 'vitest';
import { iiifLoginTarget } from './iiif-login.ts';

describe('iiifLoginTarget', () => {
  it('accepts the IIIF login service of a book, with its query', () => {
    expect(iiifLoginTarget('/iiif/auth/books/12/login?origin=https%3A%2F%2Fv.example')).toBe(
      '/iiif/auth/books/12/login?origin=https%3A%2F%2Fv.example',
    );
    expect(iiifLoginTarget('/iiif/auth/books/3/login')).toBe('/iiif/auth/books/3/login');
  });

  it('refuses other sites, other pages and odd paths', () => {
    for (const next of [
      null,
      '',
      'https://evil.example/iiif/auth/books/1/login',
      '//evil.example/iiif/auth/books/1/login',
      '/\\evil.example',
      '/iiif/auth/logout',
      '/PersonalPage',
      '/iiif/auth/books/0/login',
      '/iiif/auth/books/1/login/../../../Admin',
    ])
      expect(iiifLoginTarget(next)).toBeUndefined();
  });
});
