import { data, redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getDb } from "~/db/client.server";
import { authenticateAtDoor, signInKey, signInNameOf, type Account, type Door } from "~/services/accounts.server";
import { arrivedAt, clientAddress } from "~/utils/client.server";
import {
  enterFailureLimit,
  OPEN_GATE,
  type OpenGate,
  recordFailure,
  serviceWideBrake,
  slowLane,
} from "~/services/rate-limit.server";
import { PasswordCheckBusy } from "~/services/passwords.server";
import { accountKey, claimSignInTry, clearSignInFailures, recordSignInFailure } from "~/services/sign-in-delay.server";
import { knownDeviceId, rememberDevice } from "./known-devices.server";
import { isHoneypotFilled, parseForm, signInSchema, type FieldErrors } from "~/services/validation";
import { getEnv } from "~/utils/env.server";
import { safeRedirectPath } from "~/utils/redirect";
import { startSession } from "./session.server";
import { readForm } from "~/utils/read-form.server";
import { afterSignInPath } from "~/services/profiles.server";

/**
 * remix-auth 4 with the form strategy, once per door: "member" (/login, viewers
 * and administrators) and "provider" (/cp). remix-auth 4 only answers "who is
 * this?"; the session is started by the route (see session.server.ts).
 */
export class SignInError extends Error {
  constructor(
    public readonly status: 400 | 401 | 403 | 429 | 503,
    public readonly messageKey: string,
    public readonly fieldErrors?: FieldErrors,
    public readonly retryAfterSeconds?: number,
    /** Values of the message's placeholders (whom a blocked person writes to). */
    public readonly values?: Record<string, string>,
  ) {
    super(messageKey);
    this.name = "SignInError";
  }
}

const REASON_MESSAGES = {
  invalid: { status: 401, key: "auth:errors.incorrectCredentials" },
  blocked: { status: 403, key: "auth:errors.blocked" },
  pending: { status: 403, key: "auth:errors.pending" },
} as const;

function doorStrategy(door: Door) {
  return new FormStrategy<Account>(async ({ form, request }) => {
    if (isHoneypotFilled(form)) throw new SignInError(400, "auth:validation.spam");
    const parsed = parseForm(signInSchema, form);
    if (!parsed.success) throw new SignInError(400, "auth:errors.incorrectCredentials", parsed.fieldErrors);

    const db = getDb();
    // One key for one person however the number is written (0803…, +234 803…): the limits and the turn below.
    const email = signInKey(parsed.data.email);
    // A device that signed in to this account before (a signed cookie) is not held by failures that other devices
    // made: not by its address's (a café with one guesser), not by the service's (stuffing from many addresses).
    // Per network: failures only (a crowd behind one address signs in freely). Per account: a growing delay after
    // failures, which a known device skips too. A good sign-in writes nothing for any of them.
    const address = clientAddress(request);
    // A known device (signed in here before, with the password the account has now) has a small failure
    // limit of its own; past it, it is a new device like any other.
    const deviceId = await knownDeviceId(db, request, email);
    const deviceKey = deviceId ? `${deviceId}:${accountKey(email)}` : null;
    const deviceGate = deviceKey ? await enterFailureLimit("knownDevice", deviceKey, db) : OPEN_GATE;
    const knownDevice = deviceKey !== null && deviceGate.ok;
    const device: OpenGate = deviceGate.ok ? deviceGate : OPEN_GATE;
    const gate = knownDevice ? OPEN_GATE : await enterFailureLimit("signIn", address, db);
    if (!gate.ok) throw new SignInError(429, "auth:errors.tooManyTries", undefined, gate.retryAfterSeconds);
    const braked = knownDevice ? OPEN_GATE : await serviceWideBrake(db);
    if (!braked.ok) {
      // The brake slows devices it does not know rather than shutting them all out: one try a minute per network.
      const lane = await slowLane(address, db);
      if (!lane.ok) {
        gate.leave();
        throw new SignInError(429, "auth:errors.tooManyTries", undefined, lane.retryAfterSeconds);
      }
    }
    const brake: OpenGate = braked.ok ? braked : OPEN_GATE;
    const ourTurn = await takeAccountTurn(email);
    try {
      if (!knownDevice) {
        const claim = claimSignInTry(db, email);
        if (!claim.ok) throw new SignInError(429, "auth:errors.tooManyTries", undefined, claim.retryAfterSeconds);
      }
      let result: Awaited<ReturnType<typeof authenticateAtDoor>>;
      try {
        result = await authenticateAtDoor(
          db,
          { ...parsed.data, door },
          // Every sign-in gets an answer: one that cannot be checked in time is told to come back; one whose
          // request ended leaves the queue (nobody waits for its answer).
          // The wait counts from the request's arrival (a sign-in queued at the server's door already waited).
          {
            ipAddress: address,
            timeoutMs: Math.max(
              0,
              getEnv().passwordCheckWaitMs -
                (Date.now() - arrivedAt(request)) -
                Math.min(CHECK_MARGIN_MS, getEnv().passwordCheckWaitMs / 6),
            ),
            signal: request.signal,
          },
        );
      } catch (error) {
        if (error instanceof PasswordCheckBusy)
          throw new SignInError(503, "auth:errors.busy", undefined, BUSY_RETRY_SECONDS);
        throw error;
      }
      if (!result.ok) {
        if (result.reason === "invalid" && knownDevice) await recordFailure("knownDevice", deviceKey!, db);
        else if (result.reason === "invalid") {
          recordSignInFailure(db, email);
          await recordFailure("signIn", address, db);
        }
        const { status, key } = REASON_MESSAGES[result.reason];
        // A blocked person is told whom to write to: customer care from the configuration.
        throw new SignInError(
          status,
          key,
          undefined,
          undefined,
          result.reason === "blocked" ? getEnv().customerCare : undefined,
        );
      }
      if (!knownDevice) clearSignInFailures(db, email);
      return result.account;
    } finally {
      ourTurn();
      gate.leave();
      brake.leave();
      device.leave();
    }
  });
}

/**
 * Room left within PASSWORD_CHECK_WAIT_SECONDS for the check itself and the answer once a slot is had — on a
 * box so busy that its timers and answers run seconds late.
 */
const CHECK_MARGIN_MS = 10_000;

/** When a sign-in that found every password check busy is told to come back. */
const BUSY_RETRY_SECONDS = 5;

/**
 * Tries for one account take turns (in this process): parallel guesses at one
 * account each meet the delay its failures have earned, instead of all
 * passing before the first failure is written. People signing in to their
 * own accounts never wait for each other.
 */
const accountTurns = new Map<string, Promise<void>>();

async function takeAccountTurn(email: string): Promise<() => void> {
  const key = email.trim().toLowerCase();
  const before = accountTurns.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const tail = before.then(() => mine);
  accountTurns.set(key, tail);
  await before;
  return () => {
    done();
    if (accountTurns.get(key) === tail) accountTurns.delete(key);
  };
}

export const authenticator = new Authenticator<Account>();
authenticator.use(doorStrategy("member"), "member");
authenticator.use(doorStrategy("provider"), "provider");

/** Where each role starts after signing in. */
export function landingPath(role: Account["role"]): string {
  if (role === "admin") return "/admin/dashboard";
  // The studio opens on an overview of the provider's titles; its New Upload button leads to the form.
  if (role === "provider") return "/provider/movielist";
  return "/movies";
}

export type SignInFailure = {
  /** Absent for a blocked account: `blocked` says it once, with whom to write to. */
  formError?: string;
  retryAfterSeconds?: number;
  fieldErrors?: FieldErrors;
  values: { email: string };
  blocked?: { email: string; phone: string };
};

/**
 * The cookies of a fresh session for this account (a new id, so no one can
 * fix it beforehand), and the signed note that this browser has signed in to
 * it (no sign-in delay for it later). A sign-in and a registration both start
 * one.
 */
export async function signedInHeaders(
  request: Request,
  account: Pick<Account, "id" | "email" | "verifiedPhone">,
): Promise<Headers> {
  const headers = new Headers({
    "Set-Cookie": await startSession(account.id, {
      userAgent: request.headers.get("User-Agent"),
      ipAddress: clientAddress(request),
    }),
  });
  const known = await rememberDevice(getDb(), request, signInNameOf(account));
  if (known) headers.append("Set-Cookie", known);
  return headers;
}

/**
 * The whole sign-in action of a door: authenticate, start a session, go on to
 * `redirectTo` (same-site only) or the role's landing page. Failures come back
 * as data with the right status for the page to show.
 */
export async function signInAtDoor(request: Request, door: Door) {
  const form = await readForm(request.clone());
  const email = String(form.get("email") ?? "").slice(0, 254);
  try {
    const account = await authenticator.authenticate(door, request);
    const target = afterSignInPath(
      getDb(),
      account,
      safeRedirectPath(form.get("redirectTo"), landingPath(account.role)),
    );
    return redirect(target, { status: 303, headers: await signedInHeaders(request, account) });
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    const headers = new Headers();
    if (error.retryAfterSeconds) headers.set("Retry-After", String(error.retryAfterSeconds));
    const blocked = error.messageKey === REASON_MESSAGES.blocked.key && error.values;
    const failure: SignInFailure = blocked
      ? { values: { email }, blocked: { email: error.values!.email, phone: error.values!.phone } }
      : {
          formError: error.messageKey,
          retryAfterSeconds: error.retryAfterSeconds,
          fieldErrors: error.fieldErrors,
          values: { email },
        };
    return data(failure, { status: error.status, headers });
  }
}
