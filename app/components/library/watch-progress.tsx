import type { ReactNode } from "react";

/** A thin bar of how much was watched, named for screen readers, and what to say beside it. */
export function WatchProgress({ percent, label, children }: { percent: number; label: string; children: ReactNode }) {
  return (
    <div className="mt-2 flex items-center gap-2">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-1.5 w-40 overflow-hidden rounded-full bg-white/10"
      >
        <div className="h-full rounded-full bg-brand-500" style={{ width: `${percent}%` }} />
      </div>
      <span className="text-xs text-slate-300">{children}</span>
    </div>
  );
}
