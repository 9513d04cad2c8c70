import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jobs, movies, notifications, series } from "~/db/schema";
import { NOTICE_MAIL_JOB, type NoticeMailPayload } from "~/services/review-notices.server";
import { changeSeries, resubmitSeries, sendBackSeries } from "~/services/series-review.server";
import { setSetting } from "~/services/settings.server";
import {
  changeTitle,
  checkReturn,
  resubmitTitle,
  REVIEW_ERRORS,
  sendBackTitle,
} from "~/services/title-lifecycle.server";
import { seedBilling } from "./helpers/billing-fixtures";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
let people: ReturnType<typeof seedBilling>;
const admin = { actorId: "admin1" };
beforeEach(() => {
  testDb = createTestDatabase();
  people = seedBilling(testDb.db);
});
afterEach(() => testDb.close());

const title = () => testDb.db.select().from(movies).where(eq(movies.id, "freemovie01")).get()!;
const noticesOf = (accountId: string) =>
  testDb.db.select().from(notifications).where(eq(notifications.accountId, accountId)).all();
const mails = () =>
  testDb.db
    .select()
    .from(jobs)
    .where(eq(jobs.kind, NOTICE_MAIL_JOB))
    .all()
    .map((job) => job.payload as NoticeMailPayload);

describe("the send-back form", () => {
  it("wants a reason from the list, and words for another reason, at most 500 characters", () => {
    expect(checkReturn({ reason: "picture", note: "  " })).toEqual({
      ok: true,
      value: { reason: "picture", note: "" },
    });
    expect(checkReturn({ reason: "bogus", note: "" })).toEqual({
      ok: false,
      fieldErrors: { reason: [REVIEW_ERRORS.reason] },
    });
    expect(checkReturn({ reason: "other", note: "" })).toEqual({
      ok: false,
      fieldErrors: { note: [REVIEW_ERRORS.note] },
    });
    expect(checkReturn({ reason: "rights", note: "x".repeat(501) })).toEqual({
      ok: false,
      fieldErrors: { note: [REVIEW_ERRORS.noteTooLong] },
    });
  });
});

describe("a title sent back", () => {
  it("is unpublished with its reason; its provider is told in the bell and by mail, in English and Hausa", () => {
    expect(sendBackTitle(testDb.db, "freemovie01", { reason: "picture", note: "Blurred from 02:10." }, admin)).toBe(
      true,
    );
    expect(title()).toMatchObject({ approved: false, returnReason: "picture", returnNote: "Blurred from 02:10." });
    expect(noticesOf("provider1")).toMatchObject([
      {
        kind: "review_returned",
        messageKey: "auth:notifications.review.returned.picture",
        messageValues: { title: "Free film", note: "Blurred from 02:10." },
        link: "/provider/movielist",
        movieId: "freemovie01",
      },
    ]);
    const [mail] = mails();
    expect(mail.to).toBe("provider1@example.com");
    expect(mail.text).toContain("“Free film” was sent back: the picture is too poor. Blurred from 02:10.");
    expect(mail.text).toContain("An mayar da “Free film”: hoton bai yi kyau ba.");
    expect(sendBackTitle(testDb.db, "nosuchtitle", { reason: "picture", note: "" }, admin)).toBe(false);
  });

  it("is resubmitted by its own provider only, and then waits for approval whatever auto-approval says", () => {
    setSetting(testDb.db, "autoApproveMovies", true);
    expect(resubmitTitle(testDb.db, "freemovie01", people.provider)).toBe("notSentBack");
    sendBackTitle(testDb.db, "freemovie01", { reason: "category", note: "" }, admin);
    expect(resubmitTitle(testDb.db, "freemovie01", people.otherProvider)).toBe("forbidden");
    expect(resubmitTitle(testDb.db, "nosuchtitle", people.provider)).toBe("notFound");
    expect(resubmitTitle(testDb.db, "freemovie01", people.provider)).toBe("resubmitted");
    expect(title()).toMatchObject({ approved: false, returnReason: null, returnNote: null, returnedAt: null });
  });

  it("is approved: the reason goes, and the provider hears it; a second send-back replaces the first notice", () => {
    sendBackTitle(testDb.db, "freemovie01", { reason: "content", note: "" }, admin);
    sendBackTitle(testDb.db, "freemovie01", { reason: "rights", note: "Show the licence." }, admin);
    expect(noticesOf("provider1").map((notice) => notice.messageKey)).toEqual([
      "auth:notifications.review.returned.rights",
    ]);
    expect(changeTitle(testDb.db, "freemovie01", { approved: true }, admin)).toBe(true);
    expect(title()).toMatchObject({ approved: true, returnReason: null });
    expect(
      noticesOf("provider1")
        .map((notice) => notice.kind)
        .sort(),
    ).toEqual(["review_approved", "review_returned"]);
    // Approving what is approved already tells nobody again.
    changeTitle(testDb.db, "freemovie01", { approved: true }, admin);
    expect(mails()).toHaveLength(3);
  });
});

describe("a series sent back", () => {
  it("takes its episodes off with it, waits for its provider's resubmission, and comes back with approval", () => {
    testDb.db
      .insert(series)
      .values({ id: "series0001", name: "Gidan Haya", categoryId: "cat1", providerId: "provider1", approved: true })
      .run();
    expect(sendBackSeries(testDb.db, "series0001", { reason: "other", note: "Add season posters." }, admin)).toBe(true);
    expect(testDb.db.select().from(series).get()).toMatchObject({ approved: false, returnReason: "other" });
    expect(noticesOf("provider1")[0]).toMatchObject({
      messageKey: "auth:notifications.review.returned.other",
      link: "/provider/series/series0001",
    });
    expect(resubmitSeries(testDb.db, "series0001", people.otherProvider)).toBe("forbidden");
    expect(resubmitSeries(testDb.db, "series0001", people.provider)).toBe("resubmitted");
    expect(changeSeries(testDb.db, "series0001", { approved: true }, admin)).toBe(true);
    expect(testDb.db.select().from(series).get()).toMatchObject({ approved: true, returnReason: null });
  });
});
