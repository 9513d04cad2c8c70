import { createViewer, readLatestMail, sessionCount, signInThroughForm, uniqueEmail } from "./fixtures/accounts";
import { describeBothWays, expect, test } from "./fixtures/test";

describeBothWays("password reset", ({ mode }) => {
  test(`a viewer resets a forgotten password from the mailed link and signs in with the new one — ${mode}`, async ({
    page,
    browser,
  }) => {
    const viewer = await createViewer("reset");

    // Signed in somewhere else: the reset ends that session.
    const other = await browser.newContext({ javaScriptEnabled: false });
    const otherPage = await other.newPage();
    await signInThroughForm(otherPage, "/login", viewer.email, viewer.password);
    await expect(otherPage).toHaveURL(/\/movies$/);
    expect(sessionCount(viewer.id)).toBe(1);

    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/reset$/);
    await page.getByLabel("Email").fill(viewer.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    const sentMessage = "If an account uses that email, a link to reset its password is on its way.";
    await expect(page.getByRole("status").filter({ hasText: sentMessage })).toBeVisible();

    const mail = await readLatestMail(viewer.email);
    expect(mail).toContain("Subject: Reset your Kallo password");
    const link = /http:\/\/localhost:\d+\/reset\/[A-Za-z0-9_-]+/.exec(mail)?.[0];
    expect(link).toBeTruthy();

    await page.goto(link!);
    await page.getByLabel("New password").fill("fresh-password-9");
    await page.getByLabel("Confirm password").fill("fresh-password-9");
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("Your password was changed. Sign in with the new password.")).toBeVisible();
    expect(sessionCount(viewer.id)).toBe(0);

    await signInThroughForm(page, "/login", viewer.email, "fresh-password-9");
    await expect(page).toHaveURL(/\/movies$/);

    // The link works once.
    await page.goto(link!);
    await expect(page.getByText("This reset link is invalid, expired or already used.")).toBeVisible();

    // The other browser was signed out.
    const response = await otherPage.goto("/profile");
    await expect(otherPage).toHaveURL(/\/login\?redirectTo=%2Fprofile$/);
    expect(response?.status()).toBe(200);
    await other.close();
  });

  test(`asking for a reset says the same thing for an unknown email — ${mode}`, async ({ page }) => {
    await page.goto("/reset");
    await page.getByLabel("Email").fill(uniqueEmail("unknown"));
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "If an account uses that email" })).toBeVisible();
  });
});
