import {
  approveByEmail,
  accountByEmail,
  createApprovedProvider,
  createViewer,
  sessionCount,
  signInThroughForm,
  uniqueEmail,
} from "./fixtures/accounts";
import { describeBothWays, expect, test } from "./fixtures/test";

describeBothWays("content creators", ({ mode }) => {
  test(`a content creator signs in at /cp, edits the profile and signs out from the side menu — ${mode}`, async ({
    page,
  }) => {
    const provider = await createApprovedProvider("cp");
    await page.goto("/cp");
    await expect(page.getByRole("heading", { name: "Content creators" })).toBeVisible();
    await signInThroughForm(page, "/cp", provider.email, provider.password);
    await expect(page).toHaveURL(/\/provider\/movielist$/);

    await page.goto("/provider/profile");
    const nav = page.getByRole("navigation", { name: "Content creator menu" });
    for (const label of [
      "Movie Upload",
      "Movie List",
      "Profile",
      "Payment",
      "Recently Watched",
      "Watch Later",
      "Saved Video",
    ]) {
      await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
    }
    await expect(page.getByLabel("User ID")).toHaveValue(provider.id);
    await expect(page.getByLabel("User ID")).toHaveAttribute("readonly", "");
    await page.getByLabel("Provider name").fill("Sahel Pictures");
    await page.getByRole("button", { name: "Edit Profile" }).click();
    await expect(page.getByText("Profile Changed")).toBeVisible();
    await expect(page.getByLabel("Provider name")).toHaveValue("Sahel Pictures");

    await nav.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/cp$/);
    expect(sessionCount(provider.id)).toBe(0);
  });

  test(`a viewer's email does not open the content creators' door, nor a provider's the viewers' — ${mode}`, async ({
    page,
  }) => {
    const viewer = await createViewer("wrongdoor");
    const provider = await createApprovedProvider("wrongdoor");
    await signInThroughForm(page, "/cp", viewer.email, viewer.password);
    await expect(page.getByRole("alert").filter({ hasText: "Incorrect login credentials" }).first()).toBeVisible();
    await signInThroughForm(page, "/login", provider.email, provider.password);
    await expect(page.getByRole("alert").filter({ hasText: "Incorrect login credentials" }).first()).toBeVisible();
  });

  test(`a content creator application waits for an administrator's approval — ${mode}`, async ({ page }) => {
    const email = uniqueEmail("apply");
    const password = "creator-password-1";
    await page.goto("/cp");
    await page.getByRole("link", { name: "Apply to become a content creator" }).click();
    await expect(page).toHaveURL(/\/ContentproviderPage$/);
    await page.getByLabel("Provider name").fill("Kano Stories");
    await page.getByLabel("Business email").fill(email);
    await page.getByLabel("Phone number").fill("0803 555 0404");
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Confirm password").fill(password);
    await page.getByRole("button", { name: "Send application" }).click();
    await expect(page).toHaveURL(/\/cp$/);
    await expect(page.getByText("your application was received", { exact: false })).toBeVisible();

    const pending = accountByEmail(email)!;
    expect(pending).toMatchObject({
      role: "provider",
      providerStatus: "pending",
      blocked: true,
      providerName: "Kano Stories",
    });

    await signInThroughForm(page, "/cp", email, password);
    await expect(
      page
        .getByRole("alert")
        .filter({ hasText: "Your application is waiting for an administrator to approve it" })
        .first(),
    ).toBeVisible();

    approveByEmail(email);
    await signInThroughForm(page, "/cp", email, password);
    await expect(page).toHaveURL(/\/provider\/movielist$/);
  });
});
