/** The reservation form (预约申请) filled in with a book, for a reader who may not read it yet (issue 16). */
export function appointmentPathFor(book: { callNumber: string; title: string }): string {
  const query = new URLSearchParams({ callNumber: book.callNumber, title: book.title });
  return `/PersonalPage/Appointment?${query.toString()}`;
}

/** The book a link to the reservation form names, if it names one. */
export function appointmentBookFrom(search: URLSearchParams): { callNumber: string; title: string } | null {
  const callNumber = search.get('callNumber')?.trim() ?? '';
  const title = search.get('title')?.trim() ?? '';
  return callNumber && title ? { callNumber: callNumber.slice(0, 100), title: title.slice(0, 200) } : null;
}
