import { createApiToken } from "~/auth/api-tokens.server";
import { getDb } from "~/db/client.server";
import { checkPin, getProfile, listProfiles, switchNeedsPin } from "~/services/profiles.server";
import type { ApiRoute, HandlerContext } from "../types";
import { apiFailure, apiJson, englishText, readFields } from "../http.server";

/**
 * Profiles for apps: the account's profiles, and a token that watches as one
 * of them (every later call with it — lists, history, streams, downloads — is
 * that profile's; a children's profile's sees only G and PG titles). Leaving
 * a children's profile or opening a locked one asks the PIN, as the page does.
 */
function listAccountProfiles({ caller }: HandlerContext) {
  const account = caller!.account;
  return apiJson({
    success: true,
    current: account.profile.id,
    profiles: listProfiles(getDb(), account.id).map((profile) => ({
      id: profile.id,
      name: profile.name,
      avatar: profile.avatar,
      language: profile.language,
      children: profile.children,
      locked: profile.locked,
    })),
  });
}

async function tokenForProfile({ request, params, caller }: HandlerContext) {
  const account = caller!.account;
  const db = getDb();
  const target = getProfile(db, account.id, params.profileId);
  if (!target) return apiFailure(404, englishText("profiles:errors.missing"));
  if (switchNeedsPin(account.profile, target)) {
    const fields = await readFields(request);
    const check = await checkPin(db, account.id, String(fields.pin ?? "").slice(0, 8));
    if (!check.ok) {
      if (check.reason === "held")
        return apiFailure(
          429,
          englishText("profiles:errors.pinHeld", { minutes: Math.ceil(check.retryAfterSeconds / 60) }),
          {
            "Retry-After": String(check.retryAfterSeconds),
          },
        );
      if (check.reason === "noPin") return apiFailure(409, englishText("profiles:errors.noPin"));
      return apiJson(
        {
          success: false,
          message: englishText("profiles:errors.pinWrong", { count: check.triesLeft }),
          triesLeft: check.triesLeft,
        },
        { status: 403 },
      );
    }
  }
  return apiJson({
    success: true,
    token: await createApiToken(account, Date.now(), target.id),
    profile: { id: target.id, name: target.name, children: target.children },
  });
}

export const viewerProfileHandlers: ApiRoute[] = [
  { method: "GET", path: "/user/profiles", access: ["viewer", "admin"], handle: listAccountProfiles },
  { method: "POST", path: "/user/profiles/{profileId}/token", access: ["viewer", "admin"], handle: tokenForProfile },
];
