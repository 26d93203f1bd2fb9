/**
 * The direct line in a real browser (issue 43), at 1280 px dark and 390 px light, with axe: the
 * operator makes the messaging key in the panel; a member writes (about a passage too), sees the
 * tier's promise and when the answer is due; the operator's inbox says due, overdue (the clock set
 * by the test) or answered; a reply, read marks on both sides and the unread mark in the header;
 * a task done from /profile; a second admin device and a second member device; and a changed
 * operator key warned about.
 */
import { expect, test } from "./page-test.ts";
import { seriousViolations } from "./axe.ts";
import { member, messagesTab, sendFromMessages, setTheme } from "./messages-fixtures.ts";
import { device, note, openNotebook, PASSPHRASE, write } from "./notebook-fixtures.ts";
import { hydrated } from "./reader-helpers.ts";

test.describe.configure({ timeout: 180_000 });

for (const [width, theme] of [
  [1280, "dark"],
  [390, "light"],
] as const) {
  test(`at ${width} px, ${theme}: a member asks about a passage and writes; the operator's inbox says when it is due, replies; read marks on both sides; a task done from /profile`, async ({ browser }) => {
    const viewport = { width, height: 844 };
    const admin = await messagesTab(browser, viewport);
    await setTheme(admin, theme);
    const { code, context, page, chapter } = await member(browser, viewport, theme);

    // Ask about this passage: the passage named, linked.
    await page.goto(`/${chapter.slug}`);
    const title = (await page.locator("article section[data-subsection]").nth(1).getAttribute("data-subsection"))!;
    await page.locator("article .note-ask").nth(1).click();
    await expect(page).toHaveURL(/\/messages\?passage=\d+/);
    await hydrated(page);
    const about = page.getByText(/^About:/);
    await expect(about).toContainText(`Operator · `);
    await expect(about).toContainText(`02 ${title}`);
    await expect(about.getByRole("link")).toHaveAttribute("href", new RegExp(`^/${chapter.slug}#`));
    await expect(page.getByText("Answers within 24 hours.")).toBeVisible();
    await expect(page.getByText("Nothing is waiting for an answer.")).toBeVisible();
    expect(await seriousViolations(page), "the Messages page").toEqual([]);
    await sendFromMessages(page, "What does the second passage mean by a program?");
    await expect(page.getByTestId("due")).toContainText("An answer to your oldest waiting message is due by");
    const mine = page.getByRole("list", { name: "Messages" }).getByRole("listitem").last();
    await expect(mine).toContainText("Sent");
    await expect(mine).toContainText(`02 ${title}`);

    // The operator: the tab's count, the inbox's standing, the conversation opened (read), a reply.
    await admin.reload();
    await hydrated(admin);
    await expect(admin.getByRole("tab", { name: /^Messages \(\d+\)/ })).toBeVisible();
    await admin.getByRole("tab", { name: /^Messages/ }).click();
    const entry = admin.getByRole("list", { name: "Conversations" }).getByRole("listitem").filter({ hasText: code.login });
    await expect(entry).toContainText("Architect");
    await expect(entry.getByTestId("standing")).toHaveText(/due in (24|23) h/);
    await expect(entry).toContainText("What does the second passage mean by a program?");
    await expect(entry).toContainText("1 unread");
    expect(await seriousViolations(admin), "the inbox").toEqual([]);
    await entry.getByRole("button").click();
    const conversation = admin.getByRole("region", { name: "Conversation" });
    await expect(conversation).toContainText(`About Operator · `);
    await conversation.getByLabel("Your reply").fill("It means a reaction you did not choose, run again.");
    await conversation.getByRole("button", { name: "Send", exact: true }).click();
    await expect(conversation.getByRole("list", { name: "Messages" })).toContainText("It means a reaction you did not choose");
    expect(await seriousViolations(admin), "the conversation").toEqual([]);

    // The member: the header's unread mark, the reply, and their message now Read.
    await page.goto("/about");
    await hydrated(page);
    await expect(page.locator("header [data-unread]")).toHaveText("1");
    await page.goto("/messages");
    await hydrated(page);
    await expect(page.getByRole("list", { name: "Messages" })).toContainText("It means a reaction you did not choose");
    await expect(page.getByRole("list", { name: "Messages" }).getByRole("listitem").first()).toContainText("Read");
    await expect(page.getByText("Nothing is waiting for an answer.")).toBeVisible();
    await page.goto("/about");
    await hydrated(page);
    await expect(page.locator("header [data-unread]")).toHaveText("");

    // A task, done from /profile with an answer; the operator sees it done.
    await conversation.getByRole("button", { name: "Back to the conversations" }).click();
    await entry.getByRole("button").click();
    await conversation.getByLabel("Your reply").fill("Each evening this week, write down one reaction.");
    await conversation.getByLabel("Send as a task").check();
    // About the passage the member asked about: its chapter, then its subsection.
    const chapters = conversation.getByLabel("About a passage (optional): chapter");
    await chapters.selectOption((await chapters.locator("option", { hasText: `Operator · ` }).filter({ hasText: chapter.title }).first().getAttribute("value"))!);
    await conversation.getByLabel("Subsection").selectOption({ label: `02 ${title}` });
    await conversation.getByRole("button", { name: "Send", exact: true }).click();
    await expect(conversation.getByRole("list", { name: "Messages" }).getByRole("listitem").last()).toContainText("Task");
    await page.goto("/profile");
    await hydrated(page);
    const tasks = page.getByRole("list", { name: "Your tasks" });
    await expect(tasks).toContainText("Each evening this week, write down one reaction.");
    await expect(tasks.getByRole("link", { name: new RegExp(`02 ${title}$`) })).toHaveAttribute("href", new RegExp(`^/${chapter.slug}#`));
    expect(await seriousViolations(page), "/profile's tasks").toEqual([]);
    await tasks.getByLabel("Your answer (optional)").fill("Monday: I apologised before anyone spoke.");
    await tasks.getByRole("button", { name: "Mark done" }).click();
    await expect(page.getByText("No open tasks.")).toBeVisible();
    await conversation.getByRole("button", { name: "Back to the conversations" }).click();
    await expect(entry).toContainText("Tasks: 0 open, 1 done");
    await expect(entry).toContainText("Monday: I apologised before anyone spoke.");

    // From a note: "Send to the operator…" shows exactly what will be sent, the note's text the member's choice.
    await page.goto(`/${chapter.slug}`);
    await note(page, 0).toggle.click();
    await write(note(page, 0).box, note(page, 0).status, "My note: it said I was late before I had begun.");
    await note(page, 0).details.getByRole("link", { name: /Send to the operator/ }).click();
    await expect(page).toHaveURL(/\/messages\?note=\d+/);
    await hydrated(page);
    await page.getByLabel("Your message").fill("Here is what I wrote.");
    await page.getByLabel("Send my note on this passage with it").check();
    await expect(page.getByTestId("will-be-sent")).toHaveText("Here is what I wrote.\n\nMy note:\nMy note: it said I was late before I had begun.");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByRole("list", { name: "Messages" }).getByRole("listitem").last()).toContainText("it said I was late before I had begun");
    await admin.context().close();
    await context.close();
  });
}

test("at 1280 px: due and overdue as the clock moves, 'no reply needed'; a second admin device and a second member device; a changed operator key is warned about", async ({ browser }) => {
  const admin = await messagesTab(browser);
  const { code, context, page } = await member(browser, { width: 1280, height: 800 }, "light");
  await page.goto("/messages");
  await hydrated(page);
  await sendFromMessages(page, "A question that waits.");

  // Twenty-five hours later in the operator's browser: overdue, in the destructive colour.
  await admin.clock.setFixedTime(new Date(Date.now() + 25 * 3600_000));
  await admin.getByRole("button", { name: "Refresh" }).click();
  const entry = admin.getByRole("list", { name: "Conversations" }).getByRole("listitem").filter({ hasText: code.login });
  await expect(entry.getByTestId("standing")).toHaveText(/overdue by (1|2) h/);
  await expect(entry.getByTestId("standing")).toHaveClass(/text-red-700/);
  await entry.getByRole("button").click();
  await admin.getByRole("button", { name: "No reply needed" }).click();
  await admin.getByRole("button", { name: "Back to the conversations" }).click();
  await expect(entry.getByTestId("standing")).toHaveText("no reply needed");
  await admin.context().close();

  // A second admin device opens the key with the passphrase and reads the message.
  const second = await messagesTab(browser);
  await expect(second.getByRole("list", { name: "Conversations" }).getByRole("listitem").filter({ hasText: code.login })).toContainText("A question that waits.");
  const print = (await second.getByTestId("operator-fingerprint").textContent())!.trim();
  await second.context().close();

  // A second member device: the notebook's passphrase opens the messages; the fingerprint matches the panel's.
  const other = await device(browser, code);
  await other.page.goto("/messages");
  await hydrated(other.page);
  await other.page.getByRole("button", { name: "Open my notebook" }).click();
  await openNotebook(other.page, PASSPHRASE);
  await expect(other.page.getByRole("list", { name: "Messages" })).toContainText("A question that waits.");
  await expect(other.page.getByTestId("operator-fingerprint")).toHaveText(print);

  // The server hands out another operator key: the member's browser warns, with both fingerprints, and sends nothing until they accept.
  const impostor = await other.page.evaluate(async () => {
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    return btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey))));
  });
  await other.page.route("**/api/messages", async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    const answer = await route.fetch();
    await route.fulfill({ response: answer, json: { ...((await answer.json()) as object), operatorKey: impostor } });
  });
  await other.page.reload();
  const warning = other.page.getByRole("alert").filter({ hasText: "The operator's key has changed" });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText(`Before: ${print}`);
  await expect(other.page.getByLabel("Your message")).toHaveCount(0);
  expect(await seriousViolations(other.page), "the warning").toEqual([]);
  await other.context.close();
  await context.close();
});
