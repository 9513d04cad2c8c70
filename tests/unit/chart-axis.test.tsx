import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DailyBars } from "~/components/charts/daily-bars";
import { formatMoney } from "~/utils/money";

/** Each value label's right edge (x) and text, as drawn. */
function axisLabels(html: string): { x: number; text: string }[] {
  return [...html.matchAll(/<text x="([\d.]+)"[^>]*text-anchor="end"[^>]*>([^<]*)</g)].map((match) => ({
    x: Number(match[1]),
    text: match[2],
  }));
}

describe("a chart's value axis", () => {
  it("leaves the room its widest naira label needs, so ₦150,000 is never cut at the picture's edge", () => {
    const points = [
      { day: "2026-11-01", value: 15_000_000 },
      { day: "2026-11-02", value: 4_000_000 },
    ];
    const html = renderToString(
      createElement(DailyBars, {
        points,
        language: "ha",
        format: (value: number) => formatMoney(value, "NGN", "ha"),
        label: "Revenue",
      }),
    );
    const labels = axisLabels(html);
    expect(labels.map((label) => label.text)).toContain("₦150,000");
    // Text anchored at its end needs about 6 units a character at this size; none may start left of 0.
    for (const label of labels) expect(label.x - label.text.length * 6).toBeGreaterThanOrEqual(0);
  });
});
