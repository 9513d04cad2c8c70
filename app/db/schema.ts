import { sql } from "drizzle-orm";
import { AGE_RATINGS, PROFILE_AVATARS } from "./age-ratings";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Every table of the service. Times are stored as integer milliseconds since
 * the epoch (`timestamp_ms`), booleans as 0/1, money in the currency's minor
 * unit (kobo, cents) so no sum is ever a float.
 */

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);

export const ROLES = ["viewer", "provider", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** Stored lower-cased, so the unique index makes emails case-insensitive. Null: an account made with a phone number. */
    email: text("email"),
    /** The contact number as the person wrote it (the old forms ask for one). */
    phoneNumber: text("phone_number").notNull(),
    /** A number proven by a code sent to it, in E.164 (+2348031234567): a way in, one account per number. */
    verifiedPhone: text("verified_phone"),
    /** Notices (pass ending, new episode, a title's review) also by SMS to the verified number. */
    smsNotices: integer("sms_notices", { mode: "boolean" }).notNull().default(false),
    /** The language the person last chose, for what reaches them away from the site (SMS). */
    language: text("language"),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ROLES }).notNull().default("viewer"),
    providerName: text("provider_name"),
    /** Provider applications wait as "pending" until an administrator decides. */
    providerStatus: text("provider_status", { enum: ["pending", "approved", "rejected"] }),
    blocked: integer("blocked", { mode: "boolean" }).notNull().default(false),
    /** Data saver (at most 240p): null follows the browser's `Save-Data` header, else the viewer's choice. */
    dataSaver: integer("data_saver", { mode: "boolean" }),
    /** The next episode starts by itself even while data saver is on (the viewer chose so; off by default). */
    autoplayOnDataSaver: integer("autoplay_on_data_saver", { mode: "boolean" }).notNull().default(false),
    /** Raised on block, password change and reset: old API tokens stop working. */
    tokenVersion: integer("token_version").notNull().default(0),
    /** The profiles' PIN (scrypt, as passwords): to leave a children's profile or open a locked one. */
    profilePinHash: text("profile_pin_hash"),
    /** Wrong PINs in a row; at PIN_TRIES the PIN waits until `pinLockedUntil`. */
    pinFailures: integer("pin_failures").notNull().default(0),
    pinLockedUntil: integer("pin_locked_until", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    uniqueIndex("accounts_email_unique").on(t.email),
    uniqueIndex("accounts_verified_phone_unique").on(t.verifiedPhone),
    index("accounts_role_created_idx").on(t.role, t.createdAt),
  ],
);

/**
 * Who is watching on an account: up to five, each with its own history,
 * Continue watching, lists and downloads. An account's first profile has the
 * account's own id (so everything kept before profiles existed is its).
 * A children's profile sees only G and PG titles; leaving it, or opening a
 * locked profile, asks the account's PIN (`accounts.profile_pin_hash`).
 */
export const profiles = sqliteTable(
  "profiles",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    avatar: text("avatar", { enum: PROFILE_AVATARS }).notNull().default("sun"),
    /** The language the site speaks when this profile is chosen (null: as the browser). */
    language: text("language"),
    /** Data saver for this profile: null follows the browser (as accounts.data_saver did). */
    dataSaver: integer("data_saver", { mode: "boolean" }),
    children: integer("children", { mode: "boolean" }).notNull().default(false),
    locked: integer("locked", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("profiles_account_idx").on(t.accountId, t.createdAt)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    userAgent: text("user_agent"),
    ipAddress: text("ip_address"),
    /** The profile chosen on this device (null: not yet chosen; the account's first is used). */
    profileId: text("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_account_idx").on(t.accountId), index("sessions_expires_idx").on(t.expiresAt)],
);

export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** SHA-256 of the token in the link; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("password_resets_token_unique").on(t.tokenHash),
    index("password_resets_account_idx").on(t.accountId),
  ],
);

export const categories = sqliteTable(
  "categories",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    /** File name under STORAGE_DIR/categories, or null for the default tile. */
    imageFile: text("image_file"),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("categories_slug_unique").on(t.slug), uniqueIndex("categories_name_unique").on(t.name)],
);

import { RETURN_REASONS } from "./return-reasons";
export { RETURN_REASONS, type ReturnReason } from "./return-reasons";

/**
 * A TV series: its own row (title, description, category, cast, poster),
 * with seasons, whose episodes are ordinary titles (`movies` rows with a
 * season and an episode number), so everything a title has applies to them.
 * An administrator approves, features and prices the series; approval and
 * access are copied to its episodes (an episode's own access may differ:
 * `movies.access_override`). Posters live in media/<seriesId>/ like a title's.
 */
export const series = sqliteTable(
  "series",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    cast: text("cast").notNull().default(""),
    categoryId: text("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    providerId: text("provider_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Set once the series has its own posters (media/<id>/poster-*); else its first episode's are shown. */
    posterFile: text("poster_file"),
    approved: integer("approved", { mode: "boolean" }).notNull().default(false),
    featured: integer("featured", { mode: "boolean" }).notNull().default(false),
    access: text("access", { enum: ["free", "premium"] })
      .notNull()
      .default("free"),
    /** The series' age rating, which its episodes carry (null: unrated). */
    ageRating: text("age_rating", { enum: AGE_RATINGS }),
    /** Sent back to the provider (not approved, with a reason) until they resubmit it. */
    returnedAt: integer("returned_at", { mode: "timestamp_ms" }),
    returnReason: text("return_reason", { enum: RETURN_REASONS }),
    returnNote: text("return_note"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    index("series_provider_idx").on(t.providerId, t.updatedAt),
    index("series_approved_idx").on(t.approved, t.featured),
  ],
);

export const seasons = sqliteTable(
  "seasons",
  {
    id: text("id").primaryKey(),
    seriesId: text("series_id")
      .notNull()
      .references(() => series.id, { onDelete: "cascade" }),
    /** 1, 2, 3 … within the series. */
    number: integer("number").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("seasons_series_number_unique").on(t.seriesId, t.number)],
);

export const MOVIE_STATUSES = ["processing", "ready", "failed"] as const;
export type MovieStatus = (typeof MOVIE_STATUSES)[number];

export const movies = sqliteTable(
  "movies",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    cast: text("cast").notNull().default(""),
    categoryId: text("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    providerId: text("provider_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    status: text("status", { enum: MOVIE_STATUSES }).notNull().default("processing"),
    failureReason: text("failure_reason"),
    featured: integer("featured", { mode: "boolean" }).notNull().default(false),
    approved: integer("approved", { mode: "boolean" }).notNull().default(false),
    access: text("access", { enum: ["free", "premium"] })
      .notNull()
      .default("free"),
    /** A film's age rating (null: unrated). An episode carries its series' rating instead. */
    ageRating: text("age_rating", { enum: AGE_RATINGS }),
    /** Server-chosen names inside the title's own folder under STORAGE_DIR/media. */
    videoFile: text("video_file"),
    posterFile: text("poster_file"),
    sizeBytes: integer("size_bytes").notNull().default(0),
    durationSeconds: integer("duration_seconds").notNull().default(0),
    width: integer("width"),
    height: integer("height"),
    views: integer("views").notNull().default(0),
    /**
     * Which version of the film plays: 0 is the upload's own (media/<id>/video.mp4 and hls/), N the
     * film's Nth replacement (media/<id>/v<N>/). A replacement is made beside the version that plays
     * and becomes it in one transaction that also rewrites the rungs (film-replacements.server.ts).
     */
    mediaVersion: integer("media_version").notNull().default(0),
    /** Raised when the poster is replaced: its public addresses carry it (`?v=`), so no cached copy of the old one is shown. */
    posterVersion: integer("poster_version").notNull().default(0),
    /**
     * An episode's season and number in it; both null for a film (every title made before series
     * existed). A season with episodes is not deleted (checked at the end of the statement, so a
     * provider's removal, which cascades to both, still goes through).
     */
    seasonId: text("season_id").references(() => seasons.id, { onDelete: "no action" }),
    episodeNumber: integer("episode_number"),
    /** An episode whose access an administrator set on it: the series' access no longer changes it. */
    accessOverride: integer("access_override", { mode: "boolean" }).notNull().default(false),
    /** Sent back to the provider (not approved, with a reason) until they resubmit it. */
    returnedAt: integer("returned_at", { mode: "timestamp_ms" }),
    returnReason: text("return_reason", { enum: RETURN_REASONS }),
    returnNote: text("return_note"),
    uploadedAt: integer("uploaded_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    /**
     * The rowid of this title's row in the movies_fts search index, set by the
     * triggers of drizzle/0012: a search joins its matches to their titles by
     * this integer instead of reading each match's stored movie_id.
     */
    searchRowid: integer("search_rowid"),
    /**
     * Where the title's film and ladder live: on this box's disk, or in the
     * S3-compatible bucket (set only once every one of its files there was
     * checked; app/media/media-store.server.ts decides from it).
     */
    mediaStore: text("media_store", { enum: ["local", "s3"] })
      .notNull()
      .default("local"),
  },
  (t) => [
    // The catalogue's cards: published films (no season), newest first, read straight off the index.
    index("movies_catalogue_idx").on(t.status, t.approved, t.seasonId, t.uploadedAt, t.id),
    uniqueIndex("movies_season_episode_unique").on(t.seasonId, t.episodeNumber),
    // The public catalogue: published titles, newest first.
    // In the lists' full order (upload date, then id), so a page is read straight off the index.
    index("movies_published_idx").on(t.status, t.approved, t.uploadedAt, t.id),
    index("movies_featured_idx").on(t.featured, t.status, t.approved),
    index("movies_category_idx").on(t.categoryId, t.uploadedAt),
    index("movies_provider_idx").on(t.providerId, t.updatedAt),
    index("movies_views_idx").on(t.views),
    // A search's matches to published films (no season), without reading the titles' rows (drizzle/0013).
    index("movies_search_idx").on(t.searchRowid, t.status, t.approved, t.seasonId),
  ],
);

export const comments = sqliteTable(
  "comments",
  {
    id: text("id").primaryKey(),
    movieId: text("movie_id")
      .notNull()
      .references(() => movies.id, { onDelete: "cascade" }),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The profile that wrote it, whose name is shown (null: the profile is gone; the account's name). */
    profileId: text("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("comments_movie_idx").on(t.movieId, t.createdAt), index("comments_account_idx").on(t.accountId)],
);

export const ratings = sqliteTable(
  "ratings",
  {
    movieId: text("movie_id")
      .notNull()
      .references(() => movies.id, { onDelete: "cascade" }),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    stars: integer("stars").notNull(),
    /** The profile that rated last (one rating per account). */
    profileId: text("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [primaryKey({ columns: [t.movieId, t.accountId] }), index("ratings_account_idx").on(t.accountId)],
);

export const watchEvents = sqliteTable(
  "watch_events",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    movieId: text("movie_id")
      .notNull()
      .references(() => movies.id, { onDelete: "cascade" }),
    /** Whose viewing: its profile's history and Continue watching (null: the profile was deleted; the row still counts). */
    profileId: text("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    positionSeconds: integer("position_seconds").notNull().default(0),
    /** Whether this viewing has been counted in movies.views (once per viewing). */
    viewCounted: integer("view_counted", { mode: "boolean" }).notNull().default(false),
    /**
     * When the viewer removed this viewing from their history. The row stays for
     * the anonymous counts (trending, provider statistics) but the viewer never
     * sees it again and it no longer sets where the player resumes.
     */
    hiddenAt: integer("hidden_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("watch_events_account_idx").on(t.accountId, t.updatedAt),
    // The administrator's charts: viewings by day across every title.
    index("watch_events_started_idx").on(t.startedAt),
    // Where this viewer stopped in this title: one short walk, however long their history.
    index("watch_events_account_movie_idx").on(t.accountId, t.movieId, t.updatedAt),
    index("watch_events_movie_idx").on(t.movieId, t.startedAt),
    index("watch_events_profile_idx").on(t.profileId, t.updatedAt),
    index("watch_events_profile_movie_idx").on(t.profileId, t.movieId, t.updatedAt),
  ],
);

/**
 * A title the viewer took out of their "Continue watching" row, and when.
 * The row leaves out a viewing last moved before that moment; watching the
 * title again brings it back. History is not touched.
 */
export const continueWatchingDismissals = sqliteTable(
  "continue_watching_dismissals",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    profileId: text("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    movieId: text("movie_id")
      .notNull()
      .references(() => movies.id, { onDelete: "cascade" }),
    dismissedAt: integer("dismissed_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.movieId] })],
);

export const SAVED_LISTS = ["watch_later", "saved"] as const;

export const savedMovies = sqliteTable(
  "saved_movies",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    profileId: text("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    movieId: text("movie_id")
      .notNull()
      .references(() => movies.id, { onDelete: "cascade" }),
    list: text("list", { enum: SAVED_LISTS }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.profileId, t.list, t.movieId] }),
    index("saved_movies_movie_idx").on(t.movieId, t.list),
    // The viewer's own list pages, most recently added first.
    index("saved_movies_profile_idx").on(t.profileId, t.list, t.createdAt),
  ],
);

/**
 * A plan: what it allows (Premium titles, screens at once, the highest
 * rung of the ladder, offline downloads) and, for a pass plan, its prices per
 * pass length (`plan_periods`). The plan coded FREE is what everyone without
 * an active pass is on; it is never sold. An administrator makes, edits,
 * orders and retires plans; one that was ever sold is retired (`offered` off),
 * never deleted.
 */
export const plans = sqliteTable(
  "plans",
  {
    id: text("id").primaryKey(),
    /** A short stable name used in links (`/payment?plan=BASIC`); FREE marks the free plan. */
    code: text("code").notNull(),
    name: text("name").notNull(),
    nameHa: text("name_ha").notNull().default(""),
    description: text("description").notNull().default(""),
    descriptionHa: text("description_ha").notNull().default(""),
    /** Premium titles play on this plan. */
    premium: integer("premium", { mode: "boolean" }).notNull().default(false),
    screens: integer("screens").notNull().default(1),
    /** The highest rung of the adaptive ladder (short side in lines) its holders are served. */
    maxRung: integer("max_rung").notNull().default(1080),
    /** On sale and shown to viewers; a retired plan keeps serving the passes already sold. */
    offered: integer("offered", { mode: "boolean" }).notNull().default(true),
    sortOrder: integer("sort_order").notNull().default(0),
    /** Offline downloads: allowed at all, how many titles at once per account, kept how many days, watchable how many hours after the first play. */
    downloadsAllowed: integer("downloads_allowed", { mode: "boolean" }).notNull().default(true),
    maxDownloads: integer("max_downloads").notNull().default(5),
    downloadDays: integer("download_days").notNull().default(7),
    downloadPlayHours: integer("download_play_hours").notNull().default(48),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("plans_code_unique").on(t.code)],
);

export const passes = sqliteTable(
  "passes",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "restrict" }),
    startsAt: integer("starts_at", { mode: "timestamp_ms" }).notNull(),
    endsAt: integer("ends_at", { mode: "timestamp_ms" }).notNull(),
    source: text("source", { enum: ["payment", "voucher", "admin"] }).notNull(),
    paymentId: text("payment_id").references(() => payments.id, { onDelete: "set null" }),
    redeemCodeId: text("redeem_code_id").references(() => redeemCodes.id, { onDelete: "set null" }),
    /** When the "ends tomorrow" notification went out (once per pass). */
    expiryNotifiedAt: integer("expiry_notified_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("passes_account_idx").on(t.accountId, t.endsAt),
    index("passes_ends_idx").on(t.endsAt),
    index("passes_starts_idx").on(t.startsAt),
    // A plan's passes sold and active (the plan editor), and whether it was ever sold.
    index("passes_plan_idx").on(t.planId, t.endsAt),
  ],
);

export const payments = sqliteTable(
  "payments",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "restrict" }),
    periodDays: integer("period_days").notNull(),
    amountMinor: integer("amount_minor").notNull(),
    currency: text("currency").notNull(),
    gateway: text("gateway").notNull().default("paystack"),
    /** The unique reference sent to the gateway; events are applied once per reference. */
    reference: text("reference").notNull(),
    status: text("status", { enum: ["pending", "success", "failed"] })
      .notNull()
      .default("pending"),
    /** Where the gateway takes the payer (kept so the order page can link to it again). */
    authorizationUrl: text("authorization_url"),
    /** Why a payment failed (the gateway's answer, or an amount or currency that did not match the order). */
    failureReason: text("failure_reason"),
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payments_reference_unique").on(t.reference),
    index("payments_account_idx").on(t.accountId, t.createdAt),
    index("payments_created_idx").on(t.createdAt),
    // Revenue by day: successful payments by when they were paid.
    index("payments_paid_idx").on(t.status, t.paidAt),
    index("payments_plan_idx").on(t.planId),
  ],
);

export const redeemCodes = sqliteTable(
  "redeem_codes",
  {
    id: text("id").primaryKey(),
    code: text("code").notNull(),
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "restrict" }),
    periodDays: integer("period_days").notNull(),
    batchId: text("batch_id").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdBy: text("created_by").references(() => accounts.id, { onDelete: "set null" }),
    redeemedBy: text("redeemed_by").references(() => accounts.id, { onDelete: "set null" }),
    redeemedAt: integer("redeemed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("redeem_codes_code_unique").on(t.code),
    index("redeem_codes_batch_idx").on(t.batchId),
    index("redeem_codes_created_idx").on(t.createdAt),
    index("redeem_codes_redeemed_by_idx").on(t.redeemedBy),
    index("redeem_codes_plan_idx").on(t.planId),
  ],
);

/** How long a pass lasts and what it costs, per paid plan (an administrator edits the prices). */
import { PASS_PERIODS } from "./pass-periods";
export { PASS_PERIODS, PERIOD_DAYS, type PassPeriod } from "./pass-periods";

export const planPeriods = sqliteTable(
  "plan_periods",
  {
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    period: text("period", { enum: PASS_PERIODS }).notNull(),
    days: integer("days").notNull(),
    /** In the minor unit of `currency`. */
    priceMinor: integer("price_minor").notNull(),
    /**
     * The currency the price was set in (ISO 4217). A start whose CURRENCY differs refuses (never
     * reinterprets); null only in a database upgraded through migration 0018 before it was kept —
     * the next start records CURRENCY, what those prices were charged in since (services/price-currency.server.ts).
     */
    currency: text("currency"),
  },
  (t) => [primaryKey({ columns: [t.planId, t.period] })],
);

/**
 * Who is playing what on which device. A device is a sign-in (a hash of the
 * session id); a lease lives two minutes after its last renewal. A released
 * lease stays as a marker (expired, with releasedAt) until the next is taken.
 */
export const playbackLeases = sqliteTable(
  "playback_leases",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    deviceId: text("device_id").notNull(),
    movieId: text("movie_id")
      .notNull()
      .references(() => movies.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    /** The device said "stop" (its lease ended then): for a while only a "play" takes the screen again. */
    releasedAt: integer("released_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.deviceId] }),
    index("playback_leases_account_idx").on(t.accountId, t.expiresAt),
  ],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** A message key of the i18n catalogue plus its values, so it shows in the reader's language. */
    messageKey: text("message_key").notNull(),
    messageValues: text("message_values", { mode: "json" })
      .$type<Record<string, string | number>>()
      .notNull()
      .default(sql`'{}'`),
    link: text("link"),
    movieId: text("movie_id").references(() => movies.id, { onDelete: "cascade" }),
    readAt: integer("read_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("notifications_account_idx").on(t.accountId, t.readAt, t.createdAt),
    // One notification of a kind per person and title ("new in <category>" never twice).
    uniqueIndex("notifications_once_unique").on(t.accountId, t.kind, t.movieId),
  ],
);

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    actorId: text("actor_id").references(() => accounts.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    details: text("details", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    ipAddress: text("ip_address"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt),
    index("audit_log_actor_idx").on(t.actorId, t.createdAt),
    index("audit_log_target_idx").on(t.targetId, t.createdAt),
    index("audit_log_action_idx").on(t.action, t.createdAt),
  ],
);

/** Service-wide switches an administrator can change (for example auto-approval). */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value", { mode: "json" }).$type<unknown>().notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
});

/**
 * Background work that must survive a restart (processing an upload). A job
 * that was running when the process stopped is queued again at start.
 */
export const JOB_STATUSES = ["queued", "running", "done", "failed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    movieId: text("movie_id").references(() => movies.id, { onDelete: "cascade" }),
    payload: text("payload", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    createdAt: createdAt(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    /** Not claimed before this moment (a retry after the server was killed under the job waits a little). */
    runAfter: integer("run_after", { mode: "timestamp_ms" }),
    /** The media tool (ffmpeg) the job runs now, so a restart after a kill can end one left running. */
    toolPid: integer("tool_pid"),
  },
  (t) => [index("jobs_status_idx").on(t.status, t.createdAt), index("jobs_movie_idx").on(t.movieId)],
);

/**
 * A title's adaptive ladder: one row per rung (named by its short side in
 * lines, 144 for 144p), planned as "pending" when the ladder is planned and
 * "ready" once its file and playlist are in place under media/<id>/hls/.
 * The figures are measured from the files: BANDWIDTH is the peak segment
 * bitrate, AVERAGE-BANDWIDTH the whole file's, sizeBytes what it takes on disk.
 */
export const RENDITION_STATUSES = ["pending", "ready", "failed"] as const;
export type RenditionStatus = (typeof RENDITION_STATUSES)[number];
/**
 * A rung's family: H.264 + AAC (every browser) or AV1 + Opus (the low rungs,
 * for the browsers that decode AV1 smoothly; about half the bytes).
 */
export const RENDITION_CODECS = ["h264", "av1"] as const;
export type RenditionCodec = (typeof RENDITION_CODECS)[number];

export const movieRenditions = sqliteTable(
  "movie_renditions",
  {
    movieId: text("movie_id")
      .notNull()
      .references(() => movies.id, { onDelete: "cascade" }),
    rung: integer("rung").notNull(),
    codec: text("codec", { enum: RENDITION_CODECS }).notNull().default("h264"),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    status: text("status", { enum: RENDITION_STATUSES }).notNull().default("pending"),
    bandwidth: integer("bandwidth").notNull().default(0),
    averageBandwidth: integer("average_bandwidth").notNull().default(0),
    codecs: text("codecs").notNull().default(""),
    sizeBytes: integer("size_bytes").notNull().default(0),
    durationSeconds: real("duration_seconds").notNull().default(0),
    createdAt: createdAt(),
    readyAt: integer("ready_at", { mode: "timestamp_ms" }),
  },
  (t) => [primaryKey({ columns: [t.movieId, t.codec, t.rung] }), index("movie_renditions_status_idx").on(t.status)],
);

/**
 * A provider's resumable (tus) upload of a film, from its creation until the
 * title exists. The bytes live under STORAGE_DIR/uploads/<id> while they
 * arrive; how many have arrived is that file's size. The title's details
 * are given at creation and checked then; `movieId` is chosen then too, so
 * finishing the same upload twice can only ever make that one title.
 * `completedAt` is set in the transaction that creates the title and its job.
 */
export const resumableUploads = sqliteTable(
  "resumable_uploads",
  {
    id: text("id").primaryKey(),
    providerId: text("provider_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    movieId: text("movie_id").notNull().unique(),
    filename: text("filename").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    cast: text("cast").notNull().default(""),
    categoryId: text("category_id").notNull(),
    ageRating: text("age_rating", { enum: AGE_RATINGS }),
    /** An episode's place, checked at creation and again when the title is made. */
    seasonId: text("season_id"),
    episodeNumber: integer("episode_number"),
    /**
     * Set when the upload replaces this title's film instead of making a title: `movieId` is then
     * the replacement's id, and the text columns copy the title's (they are not used).
     */
    replacesMovieId: text("replaces_movie_id"),
    createdAt: createdAt(),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("resumable_uploads_provider_idx").on(t.providerId, t.completedAt, t.createdAt)],
);

/**
 * Failed sign-ins per account (the email, lower-cased, hashed), for the
 * growing delay between tries from devices that never signed in to it.
 * `lastTryAt` is claimed before the password is checked, so parallel tries
 * wait their turn too. A good sign-in deletes the row.
 */
export const signInFailures = sqliteTable("sign_in_failures", {
  accountKey: text("account_key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lastTryAt: integer("last_try_at").notNull(),
});

/**
 * A download for offline viewing: one title at one rung on one device. The
 * device holds a signed copy of the licence (services/downloads.server.ts);
 * this row lets the server count an account's downloads, renew them, and say
 * "no longer" (deleted, account blocked, title unpublished) when the device
 * is next online.
 */
export const downloadLicences = sqliteTable(
  "download_licences",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    movieId: text("movie_id")
      .notNull()
      .references(() => movies.id, { onDelete: "cascade" }),
    /** The profile that downloaded it: its downloads page shows it (null: the profile was deleted). */
    profileId: text("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    rung: integer("rung").notNull(),
    deviceId: text("device_id").notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("download_licences_account_idx").on(t.accountId, t.deletedAt, t.expiresAt),
    index("download_licences_profile_idx").on(t.profileId, t.deletedAt, t.expiresAt),
  ],
);

/**
 * A title's subtitles: one WebVTT file per language (a canonical BCP 47 tag),
 * at media/<movieId>/subtitles/<language>.vtt, written by the server from the
 * provider's WebVTT or SRT after checking and cleaning it. `updatedAt`
 * versions the file's address, so a replaced file is never read from a
 * browser's cache. Deleting the title deletes its rows (and its folder).
 */
export const subtitles = sqliteTable(
  "subtitles",
  {
    movieId: text("movie_id")
      .notNull()
      .references(() => movies.id, { onDelete: "cascade" }),
    language: text("language").notNull(),
    label: text("label").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [primaryKey({ columns: [t.movieId, t.language] })],
);

/**
 * One row: a number that triggers (drizzle/0014) raise whenever what a
 * catalogue list holds or its order by date or by match may change — a title,
 * series or season added, removed, published, hidden, featured, renamed or
 * moved. Views, plays and ratings do not raise it. A process keeps such lists
 * (not their cards) while the number stays the same (catalogue.server.ts).
 */
export const catalogueVersion = sqliteTable("catalogue_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull().default(0),
});

/**
 * A title's film replaced by its provider: the new file is made playable and
 * laddered in its own folder (media/<movieId>/v<version>/) while the version
 * in `movies.media_version` keeps playing, then becomes it in one transaction
 * ("done", `swappedAt`). A failed one ("failed", with the reason the provider
 * reads) leaves the title as it was. The version it replaced stays on disk a
 * while for viewers still playing it, then is removed (`retiredFilesRemovedAt`).
 */
export const REPLACEMENT_STATUSES = ["processing", "failed", "done"] as const;
export type ReplacementStatus = (typeof REPLACEMENT_STATUSES)[number];

export const filmReplacements = sqliteTable(
  "film_replacements",
  {
    id: text("id").primaryKey(),
    movieId: text("movie_id")
      .notNull()
      .references(() => movies.id, { onDelete: "cascade" }),
    requestedBy: text("requested_by").references(() => accounts.id, { onDelete: "set null" }),
    version: integer("version").notNull(),
    status: text("status", { enum: REPLACEMENT_STATUSES }).notNull().default("processing"),
    failureReason: text("failure_reason"),
    /** The uploaded file's name inside the version's folder (source.<ext>), and its name on the provider's device. */
    sourceFile: text("source_file").notNull(),
    originalName: text("original_name").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    /** When the last byte had arrived and the replacement was queued. */
    createdAt: createdAt(),
    swappedAt: integer("swapped_at", { mode: "timestamp_ms" }),
    retiredVersion: integer("retired_version"),
    retiredFilesRemovedAt: integer("retired_files_removed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("film_replacements_movie_idx").on(t.movieId, t.createdAt),
    uniqueIndex("film_replacements_version_unique").on(t.movieId, t.version),
    // One replacement at a time per title.
    uniqueIndex("film_replacements_processing_unique")
      .on(t.movieId)
      .where(sql`${t.status} = 'processing'`),
    index("film_replacements_retired_idx").on(t.status, t.retiredFilesRemovedAt, t.swappedAt),
  ],
);

/**
 * Which version of Kallo started on this database, and with how many of its
 * migrations: a build refuses a database that a newer version has migrated,
 * naming both (db/schema-version.server.ts).
 */
export const kalloVersions = sqliteTable("kallo_versions", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  version: text("version").notNull(),
  /** The newest migration this version knows (its tag, e.g. 0020_price_currency). */
  migration: text("migration").notNull(),
  startedAt: integer("started_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
});

export const PHONE_CODE_PURPOSES = ["sign_up", "sign_in", "reset", "add_phone", "pin_reset"] as const;
export type PhoneCodePurpose = (typeof PHONE_CODE_PURPOSES)[number];

/**
 * A six-digit code sent by SMS to prove a number: only its keyed hash is
 * kept; it works for ten minutes and five tries. A sign-up waits here (name,
 * password hash) until its code is given, so no unproven account holds a
 * number. The id is the code page's address: random, and says nothing of the
 * number or whether it has an account.
 */
export const phoneCodes = sqliteTable(
  "phone_codes",
  {
    id: text("id").primaryKey(),
    phone: text("phone").notNull(),
    purpose: text("purpose", { enum: PHONE_CODE_PURPOSES }).notNull(),
    accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    /** A sign-up's details until the code proves the number. */
    pending: text("pending", { mode: "json" }).$type<{
      name: string;
      email: string | null;
      passwordHash: string;
      language: string;
    }>(),
    tries: integer("tries").notNull().default(0),
    /** Where the person goes after the code (same-site path). */
    redirectTo: text("redirect_to"),
    /** The asking network (rate-limit key): codes per network are capped. */
    network: text("network").notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("phone_codes_phone_idx").on(t.phone, t.createdAt),
    index("phone_codes_network_idx").on(t.network, t.createdAt),
  ],
);

export const SMS_STATUSES = ["queued", "sent", "failed"] as const;

/**
 * Every SMS asked for, sent or refused: the caps (per number, per network,
 * service-wide, the day's spend) count these rows, and the administrator's
 * dashboard sums them by day. Cost in the currency's minor unit.
 */
export const smsMessages = sqliteTable(
  "sms_messages",
  {
    id: text("id").primaryKey(),
    to: text("to").notNull(),
    /** code (a sign-in or sign-up code), notice (a notification), warning (someone used this number). */
    kind: text("kind", { enum: ["code", "notice", "warning"] }).notNull(),
    accountId: text("account_id").references(() => accounts.id, { onDelete: "set null" }),
    notificationId: text("notification_id").references(() => notifications.id, { onDelete: "set null" }),
    /** The asking network (its rate-limit key); null for notices. */
    network: text("network"),
    provider: text("provider").notNull(),
    status: text("status", { enum: SMS_STATUSES }).notNull().default("queued"),
    /** Why a gateway refused: no_balance, invalid_number, dnd, opted_out, gateway. */
    error: text("error"),
    costMinor: integer("cost_minor").notNull().default(0),
    providerMessageId: text("provider_message_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("sms_messages_to_idx").on(t.to, t.createdAt),
    index("sms_messages_network_idx").on(t.network, t.createdAt),
    index("sms_messages_created_idx").on(t.createdAt),
    uniqueIndex("sms_messages_notification_unique").on(t.notificationId),
  ],
);
