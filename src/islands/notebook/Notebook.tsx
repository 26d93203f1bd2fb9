/**
 * The chapter page's notebook (issues 32 and 42). It wakes when a reader reaches for a subsection's
 * Note (client:interaction, `data-wake` on each Note), or once the page is idle when notes wait for
 * this chapter (the page script). The engine (src/lib/notebook/chapter-notebook.ts) takes over the
 * Notes; this island draws what it asks (NotebookQuestions, loaded with the first question) and,
 * in the page's corner, the notes this browser kept before sign-in: after "You were reading",
 * never over it (issue 42: 3).
 */
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { ChapterNotebook, type Answer, type Ask } from "../../lib/notebook/chapter-notebook.ts";
import { $auth, readStoredAuth, restoreAuth } from "../../stores/auth.ts";

// The dialogs come only with the notebook's first question.
const NotebookQuestions = lazy(() => import("./NotebookQuestions.tsx"));

const preview = () => Boolean(document.documentElement.dataset.previewTier);

/** Whether the page's "You were reading" offer (ChapterView.astro, the page script) is hidden; follows it. */
function useContinueHidden(): boolean {
  const [hidden, setHidden] = useState(true);
  useEffect(() => {
    const offer = document.querySelector<HTMLElement>("[data-continue]");
    if (!offer) return;
    const follow = () => setHidden(offer.hidden !== false);
    follow();
    const observer = new MutationObserver(follow);
    observer.observe(offer, { attributes: true, attributeFilter: ["hidden"] });
    return () => observer.disconnect();
  }, []);
  return hidden;
}

export default function Notebook() {
  const [question, setQuestion] = useState<{ ask: Ask; answer: (answer: Answer) => void } | null>(null);
  const [browserNotes, setBrowserNotes] = useState({ count: 0, left: false });
  const [moving, setMoving] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const continueHidden = useContinueHidden();
  const engine = useRef<ChapterNotebook | null>(null);

  useEffect(() => {
    const started = new ChapterNotebook({
      ask: (next) => new Promise<Answer>((resolve) => setQuestion({ ask: next, answer: resolve })),
      browserNotes: (count, left) => setBrowserNotes({ count, left }),
      signedIn: async () => {
        await restoreAuth();
        return $auth.get().isAuthenticated && !preview();
      },
      storedSignedIn: () => readStoredAuth().isAuthenticated && !preview(),
    });
    engine.current = started;
    void started.start();
    return () => started.stop();
  }, []);

  const answer = (value: Answer) => {
    question?.answer(value);
    setQuestion(null);
  };
  const { count, left } = browserNotes;

  return (
    <>
      {question && (
        <Suspense fallback={null}>
          <NotebookQuestions ask={question.ask} answer={answer} />
        </Suspense>
      )}
      {count > 0 && !dismissed && continueHidden && (
        <div role="region" aria-label="Notes kept in this browser" className="fixed right-4 bottom-4 left-4 z-40 rounded-sm border border-[var(--color-line)] bg-[var(--color-panel)] p-4 shadow-lg sm:left-auto sm:max-w-sm">
          <p className="text-sm">
            {left
              ? "Some notes could not be moved (their passage is not open to you): they stay in this browser."
              : `You wrote ${count} ${count === 1 ? "note" : "notes"} before signing in. ${count === 1 ? "It is" : "They are"} kept only in this browser until your notebook is open.`}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            {!left && (
              <button
                type="button"
                className="cta-button"
                disabled={moving}
                onClick={() => {
                  setMoving(true);
                  void engine
                    .current!.openNotebook()
                    .catch(() => null)
                    .finally(() => setMoving(false));
                }}
              >
                {moving ? "Moving..." : "Move them into my notebook"}
              </button>
            )}
            <button type="button" className="button-quiet" onClick={() => setDismissed(true)}>
              Not now
            </button>
          </div>
        </div>
      )}
    </>
  );
}
