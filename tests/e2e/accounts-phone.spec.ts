import { eq } from "drizzle-orm";
import { accounts } from "../../app/db/schema";
import { createViewer, readLatestSms, readLatestSmsCode } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { describeBothWays, expect, test, testClientAddress } from "./fixtures/test";

/**
 * A phone number as the way in (no SMS gateway in the tests: each message is
 * a file under STORAGE_DIR/sms/, as on a box without SMS_PROVIDER).
 */
let serial = 0;
/** A Nigerian mobile number of its own per test (0803 1xx xxxx), as a person writes it, and its E.164. */
function freshNumber(): { written: string; e164: string } {
  serial += 1;
  const tail = String((Date.now() % 100_000) * 10 + (serial % 10)).padStart(6, "0");
  return { written: `0803 1${tail.slice(0, 2)} ${tail.slice(2)}`, e164: `+2348031${tail}` };
}

test.describe("a phone number is a way in", () => {
  test("a person signs up with a number and no email on a 360-px phone, in Hausa, without JavaScript, and is signed in after the code", async ({
    browser,
  }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 360, height: 740 },
      locale: "ha-NG",
      extraHTTPHeaders: { "Accept-Language": "ha-NG,ha;q=0.9", "X-Forwarded-For": testClientAddress() },
    });
    const page = await context.newPage();
    const number = freshNumber();
    const started = Date.now();
    let taps = 0;
    const tap = async (action: Promise<void>) => {
      taps += 1;
      await action;
    };
    await page.goto("/register");
    await expect(page.getByRole("heading", { name: "Buɗe asusunku" })).toBeVisible();
    await tap(page.getByLabel("Suna").fill("Hauwa Sani"));
    await tap(page.getByLabel("Lambar waya").fill(number.written));
    await tap(page.getByLabel("Kalmar sirri", { exact: true }).fill("hauwa-password"));
    await tap(page.getByLabel("Tabbatar da kalmar sirri").fill("hauwa-password"));
    await tap(page.getByRole("button", { name: "Yi rijista" }).click());

    await expect(page).toHaveURL(/\/phone-code\/[A-Za-z0-9]{24}$/);
    await expect(page.getByRole("heading", { name: "Tabbatar da lambar wayarku" })).toBeVisible();
    // The number is shown half hidden, and the SMS speaks Hausa.
    await expect(page.getByText(/\+234 803 •••/)).toBeVisible();
    const sms = await readLatestSms(number.e164);
    expect(sms).toContain("lambarku");
    await tap(page.getByLabel("Lamba mai haruffa 6").fill(await readLatestSmsCode(number.e164)));
    await tap(page.getByRole("button", { name: "Tabbatar kuma yi rijista" }).click());

    await expect(page).toHaveURL(/\/movies$/);
    const seconds = (Date.now() - started) / 1000;
    console.log(`[phone sign-up] ${taps} taps, ${seconds.toFixed(1)} s on a 360-px phone without JavaScript`);
    expect(taps).toBe(7);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    const account = e2eDb().select().from(accounts).where(eq(accounts.verifiedPhone, number.e164)).get();
    expect(account).toMatchObject({ email: null, name: "Hauwa Sani", language: "ha", smsNotices: true });
    await context.close();
  });

  test("an email account adds its number on the profile and switches notices by SMS — without JavaScript", async ({
    browser,
  }) => {
    const viewer = await createViewer("add-phone");
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { "X-Forwarded-For": testClientAddress() },
    });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email or phone number").fill(viewer.email);
    await page.getByLabel("Password", { exact: true }).fill(viewer.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.goto("/editprofile");
    const number = freshNumber();
    await page.getByLabel("Mobile number").fill(number.written);
    await page.getByRole("button", { name: "Send a code" }).click();
    await expect(page.getByRole("heading", { name: "Confirm your number" })).toBeVisible();
    await page.getByLabel("6-digit code").fill(await readLatestSmsCode(number.e164));
    await page.getByRole("button", { name: "Confirm number" }).click();
    await expect(page).toHaveURL(/\/editprofile$/);
    await expect(page.getByTestId("verified-phone")).toContainText("+234 803");
    await page.getByRole("button", { name: "Send me notices by SMS" }).click();
    await expect(page.getByText(/Notices by SMS are on/).first()).toBeVisible();
    expect(e2eDb().select().from(accounts).where(eq(accounts.id, viewer.id)).get()).toMatchObject({
      verifiedPhone: number.e164,
      smsNotices: true,
      email: viewer.email,
    });
    await page.getByRole("button", { name: "Stop notices by SMS" }).click();
    await expect(page.getByRole("button", { name: "Send me notices by SMS" })).toBeVisible();
    await context.close();
  });
});

describeBothWays("signing in and resetting by SMS", ({ mode }) => {
  test(`a person with a number signs in with a code instead of a password, and resets the password by SMS — ${mode}`, async ({
    page,
  }) => {
    const number = freshNumber();
    await page.goto("/register");
    await page.getByLabel("Name").fill("Musa Bello");
    await page.getByLabel("Phone number").fill(number.written);
    await page.getByLabel("Password", { exact: true }).fill("musa-password");
    await page.getByLabel("Confirm password").fill("musa-password");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByLabel("6-digit code").fill(await readLatestSmsCode(number.e164));
    await page.getByRole("button", { name: "Confirm and sign up" }).click();
    await expect(page).toHaveURL(/\/movies$/);
    await page.context().clearCookies();

    // A code instead of the password, the number written another way.
    await page.goto("/login");
    await page.getByLabel("Email or phone number").fill(number.e164.replace("+234", "234"));
    await page.getByRole("button", { name: "Send me a code instead" }).click();
    await expect(page).toHaveURL(/\/phone-code\//);
    await expect(page.getByRole("heading", { name: "Sign in with a code" })).toBeVisible();
    await page.getByLabel("6-digit code").fill("000000");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(/That code is not right/).first()).toBeVisible();
    await page.getByLabel("6-digit code").fill(await readLatestSmsCode(number.e164));
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/movies$/);
    await page.context().clearCookies();

    // A forgotten password, reset by SMS on the code page.
    await page.goto("/reset");
    await page.getByLabel("Email or phone number").fill(number.written);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await page.getByLabel("6-digit code").fill(await readLatestSmsCode(number.e164));
    await page.getByLabel("New password").fill("musa-new-password");
    await page.getByLabel("Confirm password").fill("musa-new-password");
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel("Email or phone number").fill(number.written);
    await page.getByLabel("Password", { exact: true }).fill("musa-new-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/movies$/);
  });
});
