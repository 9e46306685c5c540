/** Calendar days in the library's time zone (site setting `timeZone`). */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: making one costs far more than using it (the dashboard calls this a lot). */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The offset of a time zone from UTC at an instant, in milliseconds. */
export function zoneOffsetMs(instant: Date, timeZone: string): number {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The end of the local day `plusDays` after the day of `instant` in a time zone, as an instant: the
 * next local midnight (exclusive). `plusDays` 0 is the end of the same day.
 */
export function endOfLocalDay(instant: Date, timeZone: string, plusDays = 0): Date {
  const offset = zoneOffsetMs(instant, timeZone);
  const local = new Date(instant.getTime() + offset);
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1 + plusDays);
  // Daylight-saving changes: take the offset at the answer itself.
  return new Date(midnight - zoneOffsetMs(new Date(midnight - offset), timeZone));
}

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function localDay(instant: Date, timeZone: string): string {
  return new Date(instant.getTime() + zoneOffsetMs(instant, timeZone)).toISOString().slice(0, 10);
}

/** The instant a local calendar day (YYYY-MM-DD) begins in a time zone. */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  const guess = midnight - zoneOffsetMs(new Date(midnight), timeZone);
  return new Date(midnight - zoneOffsetMs(new Date(guess), timeZone));
}

/** The days from `first` to `last` (YYYY-MM-DD, inclusive), in order. */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}
