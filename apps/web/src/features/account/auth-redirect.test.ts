import { describe, expect, it } from 'vitest';
import { loginPathFor, safeRedirect, signedOutAction } from './auth-redirect.ts';

describe('signedOutAction', () => {
  it('sends personal, payment-succeeded and order pages home with a reload', () => {
    expect(signedOutAction('/PersonalPage')).toBe('home-reload');
    expect(signedOutAction('/PersonalPage/Infor')).toBe('home-reload');
    expect(signedOutAction('/PaymentSucceeded')).toBe('home-reload');
    expect(signedOutAction('/Order/123')).toBe('home-reload');
  });

  it('sends other pages to /Login, except /Login itself', () => {
    expect(signedOutAction('/')).toBe('login');
    expect(signedOutAction('/Forget')).toBe('login');
    expect(signedOutAction('/PersonalPageX')).toBe('login');
    expect(signedOutAction('/Login')).toBe('stay');
  });
});

describe('safeRedirect', () => {
  it('keeps in-app paths with their query', () => {
    expect(safeRedirect('/PersonalPage/Infor')).toBe('/PersonalPage/Infor');
    expect(safeRedirect('/SearchPage?title=%E8%AF%97')).toBe('/SearchPage?title=%E8%AF%97');
  });

  it('falls back home for missing, external or looping targets', () => {
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('')).toBe('/');
    expect(safeRedirect('https://evil.example/')).toBe('/');
    expect(safeRedirect('//evil.example/')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(safeRedirect('/Login?redirect=/x')).toBe('/');
    // Issue 30: a tab (%09) left a signed-in reader on /Login with a script error.
    expect(safeRedirect(new URLSearchParams('redirect=%09/PersonalPage').get('redirect'))).toBe('/');
    expect(safeRedirect('/\t/evil.example')).toBe('/');
    expect(safeRedirect('/Book\n?id=1')).toBe('/');
    expect(safeRedirect('/register')).toBe('/');
  });

  it('builds the login address that returns to a page', () => {
    expect(loginPathFor('/PersonalPage/Infor')).toBe('/Login?redirect=%2FPersonalPage%2FInfor');
    expect(loginPathFor('/')).toBe('/Login');
    expect(safeRedirect(new URLSearchParams('redirect=%2FPersonalPage%2FInfor').get('redirect'))).toBe(
      '/PersonalPage/Infor',
    );
  });
});
