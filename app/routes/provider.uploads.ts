import type { ActionFunctionArgs } from "@remix-run/node";
import { apiFailure } from "~/api/http.server";
import { requireProviderSendingFilm } from "~/auth/guards.server";
import { receiveProviderUpload } from "~/routes-support/title-requests.server";

/**
 * POST /provider/uploads — the upload form's fields and files in one
 * multipart request, answered with JSON only after the files are stored (for
 * scripts that do not speak tus). The upload page itself sends films by tus
 * to /provider/uploads/tus, and without JavaScript posts to /provider/Movieupload.
 */
export async function action({ request }: ActionFunctionArgs) {
  const provider = await requireProviderSendingFilm(request);
  const result = await receiveProviderUpload(request, provider, "form");
  if (!result.ok) {
    return Response.json(
      { success: false, fieldErrors: result.fieldErrors, formError: result.formError },
      { status: result.status },
    );
  }
  return Response.json({ success: true, movieId: result.movieId }, { status: 201 });
}

export function loader() {
  return apiFailure(405, "Use POST", { Allow: "POST" });
}
