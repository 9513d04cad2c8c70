import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { storageRoot } from "~/media/storage.server";
import { ADMIN_CHARTS, adminChartCsv, csvResponse, type AdminChart } from "~/routes-support/dashboard-csv.server";
import { adminDashboard } from "~/services/admin-dashboard.server";
import { parseDashboardWindow } from "~/components/charts/windows";
import { getEnv } from "~/utils/env.server";

/** GET /admin/dashboard/export?chart=revenue|plans|passes|signups|hours|top|disk&days=… — one dashboard chart's numbers as CSV. */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    await requireAdmin(request);
  } catch (error) {
    if (error instanceof Response && error.status >= 300 && error.status < 400) throw error;
    return Response.json({ success: false, message: "Not allowed" }, { status: 403 });
  }
  const url = new URL(request.url);
  const chart = url.searchParams.get("chart") ?? "";
  if (!(ADMIN_CHARTS as readonly string[]).includes(chart))
    return Response.json({ success: false, message: "Unknown chart" }, { status: 400 });
  const days = parseDashboardWindow(url.searchParams.get("days"));
  const board = adminDashboard(getDb(), { days, root: storageRoot(), reserveBytes: getEnv().diskReserveBytes });
  const { t } = await getRequestT(request, "dashboards");
  return csvResponse(
    adminChartCsv(board, chart as AdminChart, t),
    `kallo-${chart}-${days}-days-${new Date().toISOString().slice(0, 10)}.csv`,
  );
}
