/** A notice in the built page's frame: each token replaced once, by words that are never searched for tokens. */
import { afterEach, describe, expect, it } from "vitest";
import { PAGE_NOTICE } from "../../lib/page-signals.ts";
import { noticeHtml } from "./page-notice.ts";
import { useSitePages } from "./site-pages.ts";

const BUILT = `<html><head><title>${PAGE_NOTICE.title} · The System</title><meta property="og:title" content="${PAGE_NOTICE.title}"></head><body><h1>${PAGE_NOTICE.title}</h1><p>${PAGE_NOTICE.text}</p><a href="${PAGE_NOTICE.href}">${PAGE_NOTICE.link}</a></body></html>`;

describe("noticeHtml", () => {
  afterEach(() => useSitePages(undefined));

  it("fills the built page's title, sentence and link, escaping the title and the link", () => {
    useSitePages((pathname) => (pathname === "/page-notice" ? BUILT : null));
    const page = noticeHtml({ title: `Tom & "Jerry" ${PAGE_NOTICE.text}`, html: `Words with ${PAGE_NOTICE.link} in them.`, link: { href: "/admin?a=1&b=2", text: "Back <home>" } });
    expect(page).toBe(
      `<html><head><title>Tom &amp; &quot;Jerry&quot; ${PAGE_NOTICE.text} · The System</title><meta property="og:title" content="Tom &amp; &quot;Jerry&quot; ${PAGE_NOTICE.text}"></head>` +
        `<body><h1>Tom &amp; &quot;Jerry&quot; ${PAGE_NOTICE.text}</h1><p>Words with ${PAGE_NOTICE.link} in them.</p><a href="/admin?a=1&amp;b=2">Back &lt;home&gt;</a></body></html>`,
    );
  });

  it("says the same words on a plain page when the site is not built", () => {
    useSitePages(() => null);
    const page = noticeHtml({ title: "Sign in to preview", html: "Previews are for the admin.", link: { href: "/admin", text: "Sign in" } });
    expect(page).toContain("<h1>Sign in to preview</h1>");
    expect(page).toContain('<a href="/admin">Sign in</a>');
    expect(page).toContain('<meta name="robots" content="noindex, nofollow">');
  });
});
