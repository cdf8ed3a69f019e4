/** UTC calendar-month arithmetic for the monthly quota (SPEC §8: resets at the start of each UTC month). */

export function monthPeriod(at: number): string {
  const d = new Date(at);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export function monthStart(at: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export function nextMonthStart(at: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Length of the current calendar month in seconds: the `w` of the requests-per-month policy. */
export function monthWindowSeconds(at: number): number {
  return Math.round((nextMonthStart(at) - monthStart(at)) / 1000);
}
