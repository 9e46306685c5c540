import { describe, expect, it } from 'vitest';
import { appointmentBookFrom, appointmentPathFor } from './appointment-link.ts';

describe('a link to the reservation form filled with a book', () => {
  it('carries the call number and title and reads them back', () => {
    const path = appointmentPathFor({ callNumber: 'DEMO-經-002', title: '孟子 & 注' });
    expect(path.startsWith('/PersonalPage/Appointment?')).toBe(true);
    expect(appointmentBookFrom(new URL(path, 'http://x').searchParams)).toEqual({
      callNumber: 'DEMO-經-002',
      title: '孟子 & 注',
    });
  });

  it('names no book when either part is missing', () => {
    expect(appointmentBookFrom(new URLSearchParams('callNumber=X'))).toBeNull();
    expect(appointmentBookFrom(new URLSearchParams(''))).toBeNull();
  });
});
