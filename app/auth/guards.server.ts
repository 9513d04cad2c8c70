import { data, redirect } from "@remix-run/node";
import { getDb } from "~/db/client.server";
import type { Account } from "~/services/accounts.server";
import { getSession } from "./session.server";
import { accountAndProfile, type Profile } from "~/services/profiles.server";
import { usesViewerPages } from "~/services/roles";
import { lingerOn } from "~/utils/request-body.server";
import { shareWhilePending } from "~/utils/share-while-pending";
import { CHILDREN_REFUSAL } from "~/utils/refusals";

/**
 * Role checks in one place, used by every loader and action. Each guard
 * returns the signed-in account or throws: a redirect to the right door
 * (with `redirectTo` to come back) when signed out, a 403 when the role is
 * wrong. An administrator may use viewer pages; a provider may not.
 */
export type SignedInAccount = Account & {
  /** Who is watching on this device (services/profiles.server.ts); its data-saver choice is the account's `dataSaver` here. */
  profile: Profile;
  /** The session row's id (cookie sign-ins), to choose another profile on this device. */
  sessionId: string | null;
};

/** The account as this device's profile sees it: the profile's data-saver choice is the one that counts. */
export function asProfile(account: Account, profile: Profile, sessionId: string | null): SignedInAccount {
  return { ...account, dataSaver: profile.dataSaver, profile, sessionId };
}

const accountsBeingRead = new Map<string, Promise<SignedInAccount | null>>();

/**
 * The signed-in account, or null (no cookie, unknown or expired session,
 * blocked account). The root loader and the page's loader both ask for each
 * page: for a GET they share one reading while it is under way (as
 * getSession does).
 */
export function getOptionalUser(request: Request): Promise<SignedInAccount | null> {
  const cookie = request.headers.get("Cookie");
  if (!cookie || (request.method !== "GET" && request.method !== "HEAD")) return readOptionalUser(request);
  return shareWhilePending(accountsBeingRead, cookie, () => readOptionalUser(request));
}

async function readOptionalUser(request: Request): Promise<SignedInAccount | null> {
  const session = await getSession(request);
  const accountId = session.get("accountId");
  if (!accountId) return null;
  const found = accountAndProfile(getDb(), accountId, session.get("profileId"));
  // Blocking deletes sessions; this also covers a row that slipped through.
  if (!found || found.account.blocked) return null;
  return asProfile(found.account, found.profile, session.id || null);
}

function doorFor(request: Request, door: "/login" | "/cp"): never {
  const url = new URL(request.url);
  // The page to come back to; a data request's own `.data` suffix is not part of it.
  const path = url.pathname.replace(/\.data$/, "") || "/";
  for (const internal of ["_data", "_routes", "index"]) url.searchParams.delete(internal);
  const back = `${path}${url.search}`;
  throw redirect(`${door}?${new URLSearchParams({ redirectTo: back })}`);
}

/**
 * A children's profile where it may not go (a title above PG, the account's own pages): 403, with
 * the body the error page reads to say so and offer another profile.
 */
export function refuseToChildren(): never {
  throw data(CHILDREN_REFUSAL, { status: 403 });
}

function forbidden(): never {
  throw data(null, { status: 403, statusText: "Forbidden" });
}

export async function requireUser(
  request: Request,
  options: { door?: "/login" | "/cp" } = {},
): Promise<SignedInAccount> {
  const user = await getOptionalUser(request);
  if (!user) doorFor(request, options.door ?? "/login");
  return user;
}

/**
 * Viewer pages: viewers and administrators. `beforeRefusing` sees any other
 * account first and may answer otherwise (a provider sent to their own
 * title's preview) by throwing a response.
 */
export async function requireViewer(
  request: Request,
  options: { beforeRefusing?: (user: SignedInAccount) => void; grownUp?: boolean } = {},
): Promise<SignedInAccount> {
  const user = await requireUser(request, { door: "/login" });
  if (!usesViewerPages(user.role)) {
    options.beforeRefusing?.(user);
    forbidden();
  }
  // The account's own pages (its details, its payments) are the grown-ups': never from a children's profile.
  if (options.grownUp && user.profile.children) refuseToChildren();
  return user;
}

export async function requireAdmin(request: Request): Promise<SignedInAccount> {
  const user = await requireUser(request, { door: "/login" });
  if (user.role !== "admin") forbidden();
  return user;
}

export async function requireProvider(request: Request): Promise<SignedInAccount> {
  const user = await requireUser(request, { door: "/cp" });
  if (user.role !== "provider") forbidden();
  return user;
}

/**
 * requireProvider for a request that carries a film (the upload routes): when
 * it is refused, the film is read and dropped behind the answer (lingerOn), so
 * the client, still sending, hears the refusal instead of a reset.
 */
export async function requireProviderSendingFilm(request: Request): Promise<SignedInAccount> {
  try {
    return await requireProvider(request);
  } catch (refusal) {
    lingerOn(request);
    throw refusal;
  }
}
