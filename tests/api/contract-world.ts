/**
 * The /api contract tests' world: one server with an administrator, two
 * viewers and two providers signed in, and the refusals every protected path
 * shares. One block per row of the /api table: the success shape the old
 * clients read, and the refusals (no credentials, wrong role, wrong owner, bad
 * payload) — the accounts' rows in contract-accounts.test.ts, the titles' and
 * files' in contract-titles.test.ts.
 */
import { expect } from "vitest";
import { call, isErrorEnvelope, login, seedAccount, startApiWorld } from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";

/** The brief's words, punctuated, and whom to write to (the default customer care the API servers run with). */
export const BLOCKED_MESSAGE =
  "Your account is blocked. Contact the Administrator: write to care@kallo.local or call +234 800 000 0000, giving the email address you sign in with.";

export type ContractWorld = {
  world: ApiWorld;
  admin: Credentials;
  viewer: Credentials;
  otherViewer: Credentials;
  provider: Credentials;
  otherProvider: Credentials;
};

export async function startContractWorld(label: string): Promise<ContractWorld> {
  // Ten failed sign-ins from one address are enough to show the refusal (the default allows 100).
  process.env.SIGN_IN_FAILURES_PER_ADDRESS = "10";
  const world = await startApiWorld(label);
  const seeded = {
    admin: seedAccount(world, "admin"),
    viewer: seedAccount(world, "viewer"),
    otherViewer: seedAccount(world, "viewer"),
    provider: seedAccount(world, "provider"),
    otherProvider: seedAccount(world, "provider"),
  };
  const [admin, viewer, otherViewer, provider, otherProvider] = await Promise.all([
    login(world, seeded.admin),
    login(world, seeded.viewer),
    login(world, seeded.otherViewer),
    login(world, seeded.provider),
    login(world, seeded.otherProvider),
  ]);
  return { world, admin, viewer, otherViewer, provider, otherProvider };
}

/** The refusals every protected path shares: nobody (401), and each role in `wrongRoles` (403). */
export async function expectGuarded(
  world: ApiWorld,
  method: string,
  pathname: string,
  wrongRoles: Credentials[],
  json?: unknown,
) {
  const anonymous = await call(world, pathname, { method, json });
  expect(anonymous.status).toBe(401);
  expect(isErrorEnvelope(anonymous)).toBe(true);
  const badToken = await call(world, pathname, { method, json, token: "not.a.token" });
  expect(badToken.status).toBe(401);
  for (const wrong of wrongRoles) {
    const refused = await call(world, pathname, { method, json, token: wrong.token });
    expect(refused.status, `${wrong.account.role} on ${method} ${pathname}`).toBe(403);
    expect(isErrorEnvelope(refused)).toBe(true);
  }
}
