/**
 * Loading shows skeletons, not blank space or a false "(0)" (issue 22: 12): the panel while it
 * loads, and the Access Codes and Webhooks tabs until their lists answer, on a phone and a desktop.
 */
import { expect, test } from "./page-test.ts";
import { adminLogin } from "./admin-fixtures.ts";
import { hold } from "./hold.ts";

for (const size of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const) {
  test(`the panel and its tabs show skeletons while they load (${size.name})`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await adminLogin(page);

    const chapters = await hold(page, "**/api/admin/chapters");
    await page.reload();
    const panel = page.getByRole("status").filter({ hasText: "Loading admin panel..." });
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId("skeleton").or(page.getByTestId("skeleton")).first()).toBeVisible();
    chapters();
    await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();

    const codes = await hold(page, "**/api/admin/access-codes");
    await page.getByRole("tab", { name: "Access Codes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Loading access codes..." })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Access codes", exact: true })).toBeVisible();
    await expect(page.getByText("No access codes yet.")).toHaveCount(0);
    codes();
    await expect(page.getByRole("heading", { name: /^Access codes \(\d+\)$/ })).toBeVisible();
    await expect(page.getByText("Loading access codes...")).toHaveCount(0);

    const hooks = await hold(page, "**/api/admin/webhooks");
    await page.getByRole("tab", { name: "Webhooks" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Loading webhooks..." })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Loading the delivery log..." })).toBeVisible();
    await expect(page.getByText("No webhooks yet")).toHaveCount(0);
    hooks();
    await expect(page.getByRole("heading", { name: /^Webhooks \(\d+\)$/ })).toBeVisible();
    await expect(page.getByTestId("skeleton")).toHaveCount(0);
  });
}
