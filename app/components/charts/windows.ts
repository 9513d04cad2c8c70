/** The windows the dashboards offer (`?days=`): shared by the pages' loaders and their window form. */
export const DASHBOARD_WINDOWS = [7, 30, 90] as const;
export type DashboardWindow = (typeof DASHBOARD_WINDOWS)[number];

export function parseDashboardWindow(value: string | null): DashboardWindow {
  const days = Number(value);
  return (DASHBOARD_WINDOWS as readonly number[]).includes(days) ? (days as DashboardWindow) : 30;
}
