import type { AdminDashboard } from "~/services/admin-dashboard.server";
import type { ProviderDashboard } from "~/services/provider-dashboard.server";
import { csvLine, safeFileName } from "~/utils/csv";
import { csvAmount } from "~/utils/money";

/**
 * The numbers behind each dashboard chart as CSV: the same figures the
 * picture draws, every row (a chart may show only the first dozen bars),
 * headers in the reader's language, plain numbers (money in the currency's
 * major unit, with its code in a column) so a spreadsheet can sum them.
 */
type T = (key: string, values?: Record<string, unknown>) => string;

export const PROVIDER_CHARTS = ["views", "hours", "titles", "retention", "episodes", "earnings"] as const;
export const ADMIN_CHARTS = ["revenue", "plans", "passes", "signups", "hours", "top", "disk"] as const;
export type ProviderChart = (typeof PROVIDER_CHARTS)[number];
export type AdminChart = (typeof ADMIN_CHARTS)[number];

const percent = (share: number | null) => (share === null ? "" : Math.round(share * 1000) / 10);

export function providerChartCsv(
  board: ProviderDashboard,
  chart: ProviderChart,
  t: T,
  seriesId?: string | null,
): string {
  const column = (key: string) => t(`csvColumns.${key}`);
  const lines: string[] = [];
  switch (chart) {
    case "views":
      lines.push(csvLine([column("day"), column("views")]));
      for (const point of board.viewsPerDay) lines.push(csvLine([point.day, point.value]));
      break;
    case "hours":
      lines.push(csvLine([column("day"), column("hours")]));
      for (const point of board.hoursPerDay) lines.push(csvLine([point.day, point.value]));
      break;
    case "titles":
      lines.push(
        csvLine([column("title"), column("viewings"), column("hours"), column("averageShare"), column("totalViews")]),
      );
      for (const title of board.titles)
        lines.push(csvLine([title.name, title.viewings, title.hours, percent(title.averageShare), title.totalViews]));
      break;
    case "retention":
      lines.push(csvLine([column("title"), column("position"), column("time"), column("stillWatching")]));
      for (const point of board.retention?.points ?? [])
        lines.push(
          csvLine([
            board.retention!.title.name,
            Math.round(point.share * 100),
            point.seconds,
            percent(point.stillWatching),
          ]),
        );
      break;
    case "episodes":
      lines.push(
        csvLine([
          column("series"),
          column("episode"),
          column("title"),
          column("viewings"),
          column("hours"),
          column("averageShare"),
        ]),
      );
      for (const entry of board.series.filter((candidate) => !seriesId || candidate.id === seriesId))
        for (const episode of entry.episodes)
          lines.push(
            csvLine([
              entry.name,
              episode.code,
              episode.ownName,
              episode.viewings,
              episode.hours,
              percent(episode.averageShare),
            ]),
          );
      break;
    case "earnings":
      lines.push(csvLine([column("title"), column("hours"), column("earnings"), column("currency")]));
      if (board.earnings.currency)
        for (const row of board.earnings.byTitle)
          lines.push(
            csvLine([
              row.name,
              row.hours,
              csvAmount(row.amountMinor, board.earnings.currency),
              board.earnings.currency,
            ]),
          );
      break;
  }
  return lines.join("");
}

export function adminChartCsv(board: AdminDashboard, chart: AdminChart, t: T): string {
  const column = (key: string) => t(`csvColumns.${key}`);
  const lines: string[] = [];
  switch (chart) {
    case "revenue":
      lines.push(csvLine([column("day"), column("amount"), column("currency")]));
      for (const series of board.revenue)
        for (const point of series.perDay)
          lines.push(csvLine([point.day, csvAmount(point.value, series.currency), series.currency]));
      break;
    case "plans":
      lines.push(csvLine([column("plan"), column("payments"), column("amount"), column("currency")]));
      for (const row of board.revenueByPlan)
        lines.push(csvLine([row.name, row.payments, csvAmount(row.amountMinor, row.currency), row.currency]));
      break;
    case "passes":
      lines.push(csvLine([column("day"), column("passes")]));
      for (const point of board.passesActive) lines.push(csvLine([point.day, point.value]));
      break;
    case "signups":
      lines.push(csvLine([column("day"), column("signUps")]));
      for (const point of board.signUps) lines.push(csvLine([point.day, point.value]));
      break;
    case "hours":
      lines.push(csvLine([column("day"), column("viewings"), column("hours")]));
      board.hoursPerDay.forEach((point, index) =>
        lines.push(csvLine([point.day, board.viewingsPerDay[index]?.value ?? 0, point.value])),
      );
      break;
    case "top":
      lines.push(csvLine([column("title"), column("provider"), column("viewings"), column("hours")]));
      for (const row of board.topTitles) lines.push(csvLine([row.name, row.providerName, row.viewings, row.hours]));
      break;
    case "disk":
      lines.push(csvLine([column("part"), column("bytes")]));
      for (const part of diskParts(board.disk)) lines.push(csvLine([t(`admin.diskParts.${part.id}`), part.bytes]));
      break;
  }
  return lines.join("");
}

/** The disk as parts of its whole: ours (films, ladders, work in progress), everything else, and what is free. */
export function diskParts(disk: AdminDashboard["disk"]) {
  const ours = disk.filmBytes + disk.renditionBytes + disk.temporaryBytes;
  const other = Math.max(0, disk.totalBytes - disk.freeBytes - ours);
  return [
    { id: "films", bytes: disk.filmBytes },
    { id: "renditions", bytes: disk.renditionBytes },
    { id: "temporary", bytes: disk.temporaryBytes },
    { id: "other", bytes: other },
    { id: "free", bytes: disk.freeBytes },
  ] as const;
}

/** A CSV download: UTF-8 with a byte-order mark (spreadsheets then read Hausa letters right), never cached. */
export function csvResponse(body: string, name: string): Response {
  return new Response(`\uFEFF${body}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${safeFileName(name)}"`,
      "Cache-Control": "no-store",
    },
  });
}
