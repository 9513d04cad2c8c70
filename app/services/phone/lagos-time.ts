/**
 * Lagos time (West Africa Time, UTC+1 all year: Nigeria keeps no summer
 * time). SMS notices wait for the morning; the SMS spend is counted per Lagos
 * day.
 */
const OFFSET_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
export const QUIET_FROM_HOUR = 21;
export const QUIET_UNTIL_HOUR = 8;

export function lagosHour(now: Date): number {
  return new Date(now.getTime() + OFFSET_MS).getUTCHours();
}

/** 21:00–08:00 in Lagos: no notice by SMS wakes anyone. */
export function isQuietHours(now: Date): boolean {
  const hour = lagosHour(now);
  return hour >= QUIET_FROM_HOUR || hour < QUIET_UNTIL_HOUR;
}

/** Midnight of the Lagos day `now` falls in. */
export function startOfLagosDay(now: Date): Date {
  const local = now.getTime() + OFFSET_MS;
  return new Date(local - (local % DAY_MS) - OFFSET_MS);
}

/** The Lagos date (YYYY-MM-DD) of a moment: the day the SMS dashboard counts it in. */
export function lagosDate(moment: Date): string {
  return new Date(moment.getTime() + OFFSET_MS).toISOString().slice(0, 10);
}
