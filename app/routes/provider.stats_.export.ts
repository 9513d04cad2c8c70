import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireProvider } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import {
  csvResponse,
  PROVIDER_CHARTS,
  providerChartCsv,
  type ProviderChart,
} from "~/routes-support/dashboard-csv.server";
import { providerDashboard } from "~/services/provider-dashboard.server";
import { parseDashboardWindow } from "~/components/charts/windows";

/**
 * GET /provider/stats/export?chart=views|hours|titles|retention|episodes|earnings&days=…[&title=…][&series=…]
 * — the numbers behind one chart of /provider/stats as CSV, this provider's own only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  let provider;
  try {
    provider = await requireProvider(request);
  } catch (error) {
    // Signed out: the redirect to the provider's door. Signed in with another role: a plain 403 for a file download.
    if (error instanceof Response && error.status >= 300 && error.status < 400) throw error;
    return Response.json({ success: false, message: "Not allowed" }, { status: 403 });
  }
  const url = new URL(request.url);
  const chart = url.searchParams.get("chart") ?? "";
  if (!(PROVIDER_CHARTS as readonly string[]).includes(chart))
    return Response.json({ success: false, message: "Unknown chart" }, { status: 400 });
  const days = parseDashboardWindow(url.searchParams.get("days"));
  const board = providerDashboard(getDb(), provider.id, { days, titleId: url.searchParams.get("title") });
  const { t } = await getRequestT(request, "dashboards");
  const body = providerChartCsv(board, chart as ProviderChart, t, url.searchParams.get("series"));
  return csvResponse(body, `kallo-${chart}-${days}-days-${new Date().toISOString().slice(0, 10)}.csv`);
}
