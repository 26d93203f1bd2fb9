/**
 * The admin panel (SPEC.md section 2, issue 6): the sign-in (or first-admin setup) form, then
 * tabs Chapters and Assessment Submissions with their counts, Messages with the conversations
 * waiting (issue 43), Access Codes, Readers (issue 23),
 * Webhooks, the publishing status and logout. One polite live region announces reorders.
 */
import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { $announcement } from "../../stores/admin-announcer.ts";
import { $chapters, $chaptersError, loadChapters, loadDeleted } from "../../stores/admin-content.ts";
import { refreshPublish } from "../../stores/admin-publish.ts";
import { $adminSession, loadAdminSession, signOut } from "../../stores/admin-session.ts";
import { $onlySubmission, $submissionsError, $submissionsTotal, loadSubmissions } from "../../stores/admin-submissions.ts";
import AccessCodesTab from "./AccessCodesTab.tsx";
import ChaptersTab from "./ChaptersTab.tsx";
import LoadError from "./LoadError.tsx";
import PublishStatus from "./PublishStatus.tsx";
import ReadersTab from "./ReadersTab.tsx";
import SignIn from "./SignIn.tsx";
import SubmissionsTab from "./SubmissionsTab.tsx";
import { TabPanel, Tabs } from "./Tabs.tsx";
import WebhooksTab from "./WebhooksTab.tsx";
import MessagesTab from "./MessagesTab.tsx";
import { apiRequest } from "../../lib/api-client.ts";
import Skeleton from "./Skeleton.tsx";
import { secondary } from "./ui.ts";

function Loading() {
  return (
    <div className="page-column py-8">
      <div aria-hidden="true" className="mb-6 h-9 w-56 animate-pulse rounded-md bg-[var(--color-line)] opacity-60 motion-reduce:animate-none" />
      <Skeleton label="Loading admin panel..." rows={4} height="h-20" />
    </div>
  );
}

export default function AdminApp() {
  const session = useStore($adminSession);
  const [setupToken, setSetupToken] = useState<string | null>(null);

  useEffect(() => {
    setSetupToken(new URLSearchParams(location.search).get("setup"));
    void loadAdminSession();
  }, []);

  if (session.status === "loading") return <Loading />;
  if (session.status === "signed-out") return <SignIn setupToken={session.setupRequired ? setupToken : null} />;
  return <Panel email={session.email} />;
}

type Tab = "chapters" | "submissions" | "messages" | "codes" | "readers" | "webhooks";

/** A lead webhook's link to one submission: /admin?submission={id}. */
function linkedSubmission(): string | null {
  const id = new URLSearchParams(location.search).get("submission");
  return id && /^[0-9a-f-]{36}$/i.test(id) ? id : null;
}

function Panel({ email }: { email: string }) {
  const chapters = useStore($chapters);
  const chaptersError = useStore($chaptersError);
  const submissionsTotal = useStore($submissionsTotal);
  const submissionsError = useStore($submissionsError);
  const announcement = useStore($announcement);
  const [ready, setReady] = useState(false);
  const [tab, setTab] = useState<Tab>(() => (linkedSubmission() ? "submissions" : "chapters"));
  // Conversations waiting for an answer (issue 43): the Messages tab's label; null when it could not be had.
  const [waiting, setWaiting] = useState<number | null>(null);

  useEffect(() => {
    $onlySubmission.set(linkedSubmission());
    const counted = apiRequest<{ waiting: number }>("GET", "/api/admin/conversations?only=waiting").then(
      (answer) => setWaiting(answer.waiting),
      () => setWaiting(null),
    );
    // (The publish status too: a line appearing after the panel would move the tabs under a pointer.)
    void Promise.all([loadChapters(), loadDeleted(), loadSubmissions(), refreshPublish(), counted]).then(() => setReady(true));
  }, []);

  if (!ready) return <Loading />;
  return (
    <div className="page-column py-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="font-serif text-3xl">Admin Panel</h1>
          <p className="mt-1 text-sm text-[var(--color-muted)]">Signed in as {email}</p>
        </div>
        <button type="button" className={secondary} onClick={() => void signOut()}>
          Log Out
        </button>
      </div>
      <div className="mt-4">
        <PublishStatus />
      </div>
      <div className="mt-6">
        <Tabs
          label="Admin sections"
          idPrefix="admin"
          selected={tab}
          onSelect={setTab}
          items={[
            // A list that failed to load has no count: "(0)" would read as empty (issue 22).
            { id: "chapters", label: chaptersError ? "Chapters" : `Chapters (${chapters.length})` },
            { id: "submissions", label: submissionsError ? "Assessment Submissions" : `Assessment Submissions (${submissionsTotal})` },
            { id: "messages", label: waiting === null ? "Messages" : `Messages (${waiting})` },
            { id: "codes", label: "Access Codes" },
            { id: "readers", label: "Readers" },
            { id: "webhooks", label: "Webhooks" },
          ]}
        />
        <TabPanel idPrefix="admin" id={tab}>
          {tab === "chapters" &&
            (chaptersError ? (
              <LoadError what="chapters" error={chaptersError} onRetry={() => Promise.all([loadChapters(), loadDeleted()])} />
            ) : (
              <ChaptersTab />
            ))}
          {tab === "submissions" && <SubmissionsTab />}
          {tab === "messages" && <MessagesTab onWaiting={setWaiting} />}
          {tab === "codes" && <AccessCodesTab />}
          {tab === "readers" && <ReadersTab />}
          {tab === "webhooks" && <WebhooksTab />}
        </TabPanel>
      </div>
      <div aria-live="polite" aria-atomic="true" className="sr-only" data-testid="announcer">
        {announcement}
      </div>
    </div>
  );
}
