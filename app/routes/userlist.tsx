import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/auth/guards.server";

/**
 * The original app served its viewer table at a public `/userlist`. Old
 * bookmarks now reach the administrator's page, and only administrators do.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return redirect("/admin/userlist", { status: 301 });
}

/** Never rendered (the loader always redirects or refuses); present so a refusal shows the styled error page. */
export default function LegacyUserList() {
  return null;
}
