import { redirect } from "@remix-run/node";

/** The original's public /userpayment is the administrator's payments page now (which checks the role). */
export function loader() {
  return redirect("/admin/userpayment", { status: 301 });
}
