import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { metaTitleMeta } from "~/utils/meta";
import { useTranslation } from "~/i18n/use-translation";
import { requireViewer } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
// The languages come through the loader: the page's bundle carries no copy of the i18n settings.
import { isLanguage, languageCookie, LANGUAGE_NAMES, LANGUAGES } from "~/i18n/language.server";
import { PROFILE_AVATARS } from "~/db/age-ratings";
import { ProfileAvatar } from "~/components/profiles/avatar";
import { PinField } from "~/components/profiles/pin-field";
import { Field, FormError, SelectField, SubmitButton, useErrorToasts } from "~/components/ui/form";
import { Link } from "~/components/ui/link";
import {
  checkPin,
  chooseProfile,
  createProfile,
  deleteProfile,
  getProfile,
  hasPin,
  isProfileAvatar,
  listProfiles,
  PROFILE_NAME_MAX,
  PROFILES_MAX,
  setPinWithPassword,
  switchNeedsPin,
  updateProfileSettings,
  type Profile,
  type ProfileInput,
} from "~/services/profiles.server";
import { clientAddress } from "~/utils/client.server";
import { maskPhoneNumber } from "~/services/phone/numbers.server";
import { sendCodeToNumber } from "~/routes-support/phone-code.server";
import { oneLine } from "~/utils/stored-text";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/read-form.server";
import type { TranslationHandle } from "~/i18n/page-translations";

// "auth": the messages of a code sent by SMS (a forgotten PIN) and of too many password tries.
export const handle: TranslationHandle = { i18n: ["profiles", "auth"] };

export const meta = metaTitleMeta;

/**
 * /profiles — "Who's watching?" and the account's profiles: choose one for
 * this device (the PIN when leaving a children's profile or opening a locked
 * one), add, change and delete them, and set the PIN with the password.
 * Every action is a plain POST: it all works without JavaScript. While a
 * children's profile is in use, only choosing (with the PIN) is allowed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireViewer(request);
  const url = new URL(request.url);
  const db = getDb();
  const profiles = listProfiles(db, user.id);
  const who = url.searchParams.get("who") === "1";
  const pinFor = profiles.find((profile) => profile.id === url.searchParams.get("pin")) ?? null;
  const { t } = await getRequestT(request, "profiles");
  return {
    metaTitle: who ? t("whoMetaTitle") : t("metaTitle"),
    who,
    redirectTo: safeRedirectPath(url.searchParams.get("redirectTo"), "/movies"),
    profiles,
    currentId: user.profile.id,
    leavingChildren: user.profile.children,
    canManage: !user.profile.children,
    hasPin: hasPin(db, user.id),
    pinFor: pinFor && switchNeedsPin(user.profile, pinFor) ? pinFor : null,
    editing: url.searchParams.get("edit"),
    max: PROFILES_MAX,
    nameMax: PROFILE_NAME_MAX,
    languages: LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] })),
    // A forgotten PIN may also be replaced with a code sent to the account's own number.
    pinByCode: user.verifiedPhone ? maskPhoneNumber(user.verifiedPhone) : null,
  };
}

type ActionFailure = {
  formError?: string;
  fieldErrors?: Record<string, string[]>;
  retryAfterSeconds?: number;
  /** The profile whose PIN was asked, and how many tries are left. */
  pinFor?: string;
  triesLeft?: number;
  /** Which form failed (a new profile, or the id of the one changed), to show its messages beside it. */
  form?: string;
};

function failure(status: number, body: ActionFailure) {
  const headers = new Headers();
  if (body.retryAfterSeconds) headers.set("Retry-After", String(body.retryAfterSeconds));
  return data(body, { status, headers });
}

/** A profile's settings from a form, or the messages of what is wrong. */
function readProfileInput(form: FormData): { input: ProfileInput } | { fieldErrors: Record<string, string[]> } {
  const name = oneLine(String(form.get("name") ?? "")).trim();
  const avatar = form.get("avatar");
  const language = form.get("language");
  const dataSaver = form.get("dataSaver");
  const fieldErrors: Record<string, string[]> = {};
  if (!name) fieldErrors.name = ["profiles:errors.nameRequired"];
  else if ([...name].length > PROFILE_NAME_MAX) fieldErrors.name = ["profiles:errors.nameTooLong"];
  if (!isProfileAvatar(avatar)) fieldErrors.avatar = ["profiles:errors.avatar"];
  if (Object.keys(fieldErrors).length > 0) return { fieldErrors };
  return {
    input: {
      name,
      avatar: avatar as ProfileInput["avatar"],
      language: isLanguage(language) ? language : null,
      dataSaver: dataSaver === "on" ? true : dataSaver === "off" ? false : null,
      children: form.get("children") === "on",
      locked: form.get("locked") === "on",
    },
  };
}

const REFUSALS = {
  tooMany: "profiles:errors.tooMany",
  last: "profiles:errors.last",
  notFound: "profiles:errors.missing",
  pinNeeded: "profiles:errors.pinNeeded",
} as const;

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireViewer(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const db = getDb();
  const profileId = String(form.get("profileId") ?? "").slice(0, 64);

  if (intent === "choose") {
    const redirectTo = safeRedirectPath(form.get("redirectTo"), "/movies");
    const target = getProfile(db, user.id, profileId);
    if (!target) return redirectWithToast("/profiles", { type: "error", key: REFUSALS.notFound }, { status: 303 });
    if (switchNeedsPin(user.profile, target)) {
      const pin = form.get("pin");
      // Asked for the first time: the PIN's own page (a plain link, no script needed).
      if (pin === null)
        return redirect(`/profiles?${new URLSearchParams({ pin: target.id, redirectTo })}`, { status: 303 });
      const check = await checkPin(db, user.id, String(pin).slice(0, 8));
      if (!check.ok) {
        if (check.reason === "held")
          return failure(429, {
            pinFor: target.id,
            formError: "profiles:errors.pinHeld",
            retryAfterSeconds: check.retryAfterSeconds,
          });
        if (check.reason === "noPin") return failure(400, { pinFor: target.id, formError: "profiles:errors.noPin" });
        return failure(400, {
          pinFor: target.id,
          triesLeft: check.triesLeft,
          fieldErrors: { pin: ["profiles:errors.pinWrong"] },
        });
      }
    }
    if (!user.sessionId) return failure(400, { formError: REFUSALS.notFound });
    chooseProfile(db, user.sessionId, target.id);
    const headers = new Headers();
    // The profile speaks its own language on this device.
    if (target.language) headers.append("Set-Cookie", await languageCookie.serialize(target.language));
    return redirectWithToast(
      redirectTo,
      { type: "success", key: "profiles:chosen", values: { name: target.name } },
      { status: 303, headers },
    );
  }

  // Everything else is the owner's: never from a children's profile.
  if (user.profile.children) return failure(403, { formError: "profiles:errors.childrenCannot" });

  if (intent === "add" || intent === "update") {
    const read = readProfileInput(form);
    const which = intent === "add" ? "new" : profileId;
    if ("fieldErrors" in read) return failure(400, { fieldErrors: read.fieldErrors, form: which });
    const result =
      intent === "add"
        ? createProfile(db, user.id, read.input)
        : updateProfileSettings(db, user.id, profileId, read.input);
    if (!result.ok)
      return failure(result.reason === "notFound" ? 404 : 400, { formError: REFUSALS[result.reason], form: which });
    return redirectWithToast(
      "/profiles",
      intent === "add"
        ? { type: "success", key: "profiles:added", values: { name: read.input.name } }
        : { type: "success", key: "profiles:saved" },
      { status: 303 },
    );
  }
  if (intent === "delete") {
    const result = deleteProfile(db, user.id, profileId);
    if (!result.ok)
      return failure(result.reason === "notFound" ? 404 : 400, { formError: REFUSALS[result.reason], form: profileId });
    return redirectWithToast("/profiles", { type: "success", key: "profiles:deleted" }, { status: 303 });
  }
  if (intent === "pinCode") {
    if (!user.verifiedPhone) return failure(400, { formError: "auth:phone.codeNeedsNumber", form: "pin" });
    return sendCodeToNumber(request, {
      written: user.verifiedPhone,
      field: "pin",
      values: {},
      purpose: "pin_reset",
      accountId: user.id,
    });
  }
  if (intent === "pin") {
    const result = await setPinWithPassword(
      db,
      user.id,
      { pin: String(form.get("pin") ?? "").trim(), password: String(form.get("password") ?? "") },
      { ipAddress: clientAddress(request) },
    );
    if (!result.ok) return failure(400, { fieldErrors: { [result.field]: [result.key] }, form: "pin" });
    return redirectWithToast("/profiles", { type: "success", key: "profiles:pin.saved" }, { status: 303 });
  }
  return failure(400, { formError: "profiles:errors.missing" });
}

export default function Profiles() {
  const { t } = useTranslation("profiles");
  const loaded = useLoaderData<typeof loader>();
  const failed = useActionData<ActionFailure>();
  useErrorToasts(failed && !failed.pinFor ? failed : null);
  const pinFor = failed?.pinFor
    ? (loaded.profiles.find((profile) => profile.id === failed.pinFor) ?? null)
    : loaded.pinFor;

  if (pinFor)
    return (
      <section className="mx-auto w-full max-w-md px-4 py-10">
        <PinPrompt
          profile={pinFor}
          leavingChildren={loaded.leavingChildren}
          redirectTo={loaded.redirectTo}
          failed={failed?.pinFor === pinFor.id ? failed : undefined}
        />
      </section>
    );

  return (
    <section className="mx-auto w-full max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold">{loaded.who ? t("who") : t("title")}</h1>
      <p className="mt-2 text-sm text-slate-300">{t("intro", { max: loaded.max })}</p>
      {failed && !failed.form && !failed.pinFor ? (
        <div className="mt-4">
          <FormError errors={failed} />
        </div>
      ) : null}
      <ul className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3" data-testid="profile-choices">
        {loaded.profiles.map((profile) => (
          <li key={profile.id}>
            <Form method="post" data-profile-id={profile.id}>
              <input type="hidden" name="profileId" value={profile.id} />
              <input type="hidden" name="redirectTo" value={loaded.redirectTo} />
              <button
                type="submit"
                name="intent"
                value="choose"
                aria-label={t("choose", { name: profile.name })}
                aria-current={profile.id === loaded.currentId || undefined}
                className="flex w-full flex-col items-center gap-2 rounded-lg border border-white/10 bg-ink-900/60 p-4 hover:bg-white/5 aria-[current]:border-brand-400"
              >
                <ProfileAvatar avatar={profile.avatar} size={64} />
                <span className="max-w-full truncate font-semibold">{profile.name}</span>
                <span className="text-xs text-slate-300">
                  {[
                    profile.id === loaded.currentId ? t("current") : null,
                    profile.children ? t("children") : null,
                    profile.locked ? t("locked") : null,
                  ]
                    .filter(Boolean)
                    .join(" · ") || "\u00a0"}
                </span>
              </button>
            </Form>
          </li>
        ))}
      </ul>
      {loaded.canManage && !loaded.who ? <ManageProfiles failed={failed} /> : null}
      {loaded.canManage && loaded.who ? (
        <p className="mt-6 text-sm">
          <Link to="/profiles" className="text-brand-300 underline">
            {t("manage")}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

function PinPrompt({
  profile,
  leavingChildren,
  redirectTo,
  failed,
}: {
  profile: Profile;
  leavingChildren: boolean;
  redirectTo: string;
  failed?: ActionFailure;
}) {
  const { t } = useTranslation("profiles");
  return (
    <Form
      method="post"
      className="grid gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-5"
      data-testid="pin-form"
    >
      <div className="flex items-center gap-3">
        <ProfileAvatar avatar={profile.avatar} />
        <h1 className="text-xl font-bold">
          {leavingChildren ? t("pin.enterToLeave") : t("pin.enterFor", { name: profile.name })}
        </h1>
      </div>
      <FormError errors={failed} />
      <input type="hidden" name="profileId" value={profile.id} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <PinField
        label={t("pin.enter")}
        autoFocus
        errors={failed?.fieldErrors?.pin}
        hint={failed?.triesLeft !== undefined ? t("errors.pinWrong", { count: failed.triesLeft }) : undefined}
      />
      <div className="flex flex-wrap gap-3">
        <SubmitButton intent="choose" pendingText={t("pin.open")}>
          {t("pin.open")}
        </SubmitButton>
        <Link to="/profiles" className="rounded border border-white/20 px-4 py-2.5">
          {t("pin.cancel")}
        </Link>
      </div>
    </Form>
  );
}

/** The fields of a profile (new or existing). */
function ProfileFields({ profile, errors }: { profile?: Profile; errors?: Record<string, string[]> }) {
  const { t } = useTranslation("profiles");
  const { nameMax, languages } = useLoaderData<typeof loader>();
  return (
    <>
      <Field
        name="name"
        label={t("name")}
        required
        maxLength={nameMax}
        defaultValue={profile?.name}
        errors={errors?.name}
      />
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium text-slate-200">{t("avatar")}</legend>
        <div className="flex flex-wrap gap-2">
          {PROFILE_AVATARS.map((avatar, index) => (
            <label
              key={avatar}
              className="flex cursor-pointer items-center gap-1 rounded border border-white/10 p-1 has-[:checked]:border-brand-400"
            >
              <input
                type="radio"
                name="avatar"
                value={avatar}
                defaultChecked={profile ? profile.avatar === avatar : index === 0}
                className="sr-only"
              />
              <ProfileAvatar avatar={avatar} size={36} />
              <span className="sr-only">{t(`avatars.${avatar}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <SelectField
        name="language"
        label={t("language")}
        defaultValue={profile?.language ?? ""}
        options={[{ value: "", label: t("languageBrowser") }, ...languages]}
      />
      <SelectField
        name="dataSaver"
        label={t("dataSaver")}
        defaultValue={profile?.dataSaver === true ? "on" : profile?.dataSaver === false ? "off" : ""}
        options={[
          { value: "", label: t("dataSaverBrowser") },
          { value: "on", label: t("dataSaverOn") },
          { value: "off", label: t("dataSaverOff") },
        ]}
      />
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name="children" defaultChecked={profile?.children} className="mt-1" />
        <span>
          <span className="font-medium">{t("children")}</span>
          <span className="block text-slate-300">{t("childrenHint")}</span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name="locked" defaultChecked={profile?.locked} className="mt-1" />
        <span>
          <span className="font-medium">{t("locked")}</span>
          <span className="block text-slate-300">{t("lockedHint")}</span>
        </span>
      </label>
    </>
  );
}

function ManageProfiles({ failed }: { failed?: ActionFailure }) {
  const { t } = useTranslation("profiles");
  const { profiles, hasPin, max, editing, pinByCode } = useLoaderData<typeof loader>();
  const mine = (form: string) => (failed?.form === form ? failed : undefined);
  return (
    <div className="mt-10 grid gap-8">
      <h2 className="text-2xl font-bold">{t("manage")}</h2>
      <ul className="grid gap-4">
        {profiles.map((profile) => (
          <li
            key={profile.id}
            className="rounded-lg border border-white/10 bg-ink-900/60 p-4"
            data-manage-profile={profile.id}
          >
            <details open={editing === profile.id || Boolean(mine(profile.id))}>
              <summary className="flex cursor-pointer items-center gap-3">
                <ProfileAvatar avatar={profile.avatar} size={32} />
                <span className="font-semibold">{t("edit", { name: profile.name })}</span>
              </summary>
              <Form method="post" className="mt-4 grid gap-4">
                <FormError errors={mine(profile.id)} />
                <input type="hidden" name="profileId" value={profile.id} />
                <ProfileFields profile={profile} errors={mine(profile.id)?.fieldErrors} />
                <SubmitButton intent="update" pendingText={t("save")}>
                  {t("save")}
                </SubmitButton>
              </Form>
              {profiles.length > 1 ? (
                <Form method="post" className="mt-4 flex flex-wrap items-center gap-3">
                  <input type="hidden" name="profileId" value={profile.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="delete"
                    className="rounded border border-red-400/50 px-3 py-1.5 text-sm text-red-200 hover:bg-red-950/50"
                  >
                    {t("delete", { name: profile.name })}
                  </button>
                  <span className="text-xs text-slate-300">{t("deleteHint")}</span>
                </Form>
              ) : null}
            </details>
          </li>
        ))}
      </ul>
      {profiles.length < max ? (
        <Form
          method="post"
          className="grid gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-4"
          data-testid="add-profile"
        >
          <h3 className="text-lg font-semibold">{t("add")}</h3>
          <FormError errors={mine("new")} />
          <ProfileFields errors={mine("new")?.fieldErrors} />
          <SubmitButton intent="add" pendingText={t("add")}>
            {t("add")}
          </SubmitButton>
        </Form>
      ) : null}
      <Form
        method="post"
        className="grid gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-4"
        data-testid="pin-settings"
      >
        <h3 className="text-lg font-semibold">{t("pin.title")}</h3>
        <p className="text-sm text-slate-300">{hasPin ? t("pin.set") : t("pin.notSet")}</p>
        <PinField label={t("pin.choose")} errors={mine("pin")?.fieldErrors?.pin} />
        <Field
          name="password"
          label={t("pin.password")}
          type="password"
          autoComplete="current-password"
          required
          hint={t("pin.passwordHint")}
          errors={mine("pin")?.fieldErrors?.password}
        />
        <SubmitButton intent="pin" pendingText={t("pin.save")}>
          {t("pin.save")}
        </SubmitButton>
      </Form>
      {pinByCode ? (
        <Form method="post" className="-mt-4 flex flex-wrap items-center gap-3 text-sm" data-testid="pin-by-code">
          <span className="text-slate-300">{t("pin.byCode", { number: pinByCode })}</span>
          <SubmitButton
            intent="pinCode"
            pendingText={t("pin.sendCode")}
            className="rounded border border-white/20 px-3 py-1.5 font-semibold hover:bg-white/10 aria-disabled:opacity-70"
          >
            {t("pin.sendCode")}
          </SubmitButton>
        </Form>
      ) : null}
    </div>
  );
}
