/**
 * Run a piece of upkeep soon after start and then every `intervalMs`, once
 * per process however often the server module is loaded (development reloads
 * it). The timers never keep the process alive. `work` handles its own errors.
 */
const globalForTimers = globalThis as unknown as { __kalloPeriodic?: Map<string, NodeJS.Timeout> };

export function startPeriodic(name: string, intervalMs: number, work: () => void, firstAfterMs = 1_000): void {
  const timers = (globalForTimers.__kalloPeriodic ??= new Map());
  if (timers.has(name)) return;
  const timer = setInterval(work, intervalMs);
  timer.unref();
  timers.set(name, timer);
  setTimeout(work, firstAfterMs).unref();
}

/** Stop every upkeep timer of this process (a clean stop). */
export function stopPeriodic(): void {
  for (const timer of globalForTimers.__kalloPeriodic?.values() ?? []) clearInterval(timer);
  globalForTimers.__kalloPeriodic?.clear();
}
