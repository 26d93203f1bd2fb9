import { expect, test } from "./page-test.ts";

test("/ lands on the first Operator chapter with its title and first subsection visible", async ({ page, request }) => {
  const chapters = (await (await request.get("/api/chapters")).json()) as Array<{ slug: string; title: string; level: string; id: number }>;
  const first = chapters.find((c) => c.level === "Operator")!;
  const parts = (await (await request.get(`/api/chapters/${first.id}/subsections`)).json()) as Array<{ title: string }>;

  await page.goto("/");
  await expect(page).toHaveURL(new RegExp(`/${first.slug}$`));
  await expect(page.getByRole("heading", { level: 1, name: first.title })).toBeVisible();
  await expect(page.getByRole("heading", { name: parts[0]!.title })).toBeVisible();
});
