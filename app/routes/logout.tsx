import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getOptionalUser } from "~/auth/guards.server";
import { endSession } from "~/auth/session.server";
import { getDb } from "~/db/client.server";
import { recordAudit } from "~/services/audit.server";
import { clientAddress } from "~/utils/client.server";

/** POST only: deletes this session's row and clears the cookie. Providers go back to their door. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await getOptionalUser(request);
  const cookie = await endSession(request);
  if (user) {
    recordAudit(getDb(), {
      actorId: user.id,
      action: "auth.sign_out",
      targetType: "account",
      targetId: user.id,
      ipAddress: clientAddress(request),
    });
  }
  return redirect(user?.role === "provider" ? "/cp" : "/login", { status: 303, headers: { "Set-Cookie": cookie } });
}

/** A GET (a prefetch, a pasted link) changes nothing. */
export function loader() {
  return redirect("/");
}
