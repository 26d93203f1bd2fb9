/**
 * The Mental Operating System Scan at /assessment (SPEC.md section 4, "Assessment flow"): a
 * session is created on opening; 15 questions one at a time; 'One Final Step' asks for name and
 * email; 'Scan Complete' shows the result. Saving, retries and reload-resume live in scan-sync.ts.
 *
 * By keyboard (issue 44: 4): after Next or Previous the focus is on the new question's answer (the
 * chosen one, or the first), so arrows choose and Enter goes on: at most 3 presses a question. The
 * contact step marks each field that is wrong (aria-invalid, and words beside it tied to it by
 * aria-describedby) as well as showing the spec's toast.
 */
import {
  useEffect,
  useRef,
  useState,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  type SubmitEvent,
} from "react";
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  contactFieldProblems,
  contactProblem,
  type ContactFieldProblems,
} from "../../lib/assessment/contact-rules.ts";
import { QUESTION_COUNT, SCAN_MINUTES, type Answer, type PublicQuestion, type ScanResult } from "../../lib/assessment/shape.ts";
import { dismiss, notify } from "../../lib/notify.ts";
import ResultBody from "./ResultBody.tsx";
import ResultLink from "./ResultLink.tsx";
import { failStart, openScan } from "./scan-start.ts";
import type { ScanSync } from "./scan-sync.ts";

interface Props {
  questions: PublicQuestion[];
  /** The external scheduling page for the free first call. */
  scheduleUrl: string;
}

type Phase = "loading" | "questions" | "contact" | "result";

/** The site's two buttons (global.css): the call to action and the quiet one. */
const primary = "cta-button";
const secondary = "button-quiet";

export default function AssessmentScan({ questions, scheduleUrl }: Props) {
  // The page's scan (scan-start.ts): in the browser it exists before this island wakes, so a
  // press replayed the moment it wakes finds it; while prerendered there is none.
  const [scan] = useState<ScanSync | null>(() => (typeof window === "undefined" ? null : openScan().scan));
  const [phase, setPhase] = useState<Phase>("loading");
  const [processing, setProcessing] = useState(false);
  const [, setVersion] = useState(0);
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [result, setResult] = useState<ScanResult | null>(null);
  const [fieldProblems, setFieldProblems] = useState<ContactFieldProblems>({});
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const questionSet = useRef<HTMLFieldSetElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const emailField = useRef<HTMLInputElement>(null);
  /** Set by a move the reader made (Next, Previous, a failed completion): the next question drawn takes the focus. */
  const focusQuestion = useRef(false);
  const refresh = () => setVersion((v) => v + 1);

  // The page created the session when it opened (scan-start.ts); this takes that scan over, with
  // an answer chosen before it woke, or resumes the one this tab had before a reload.
  useEffect(() => {
    if (!scan || phase !== "loading") return;
    const { stored } = openScan();
    setPhase("questions");
    if (!stored) {
      const picked = document.querySelector<HTMLInputElement>('input[name="question-1"]:checked')?.value as Answer | undefined;
      if (picked) scan.choose(1, picked);
      refresh();
      return;
    }
    setProcessing(true);
    void scan.resume().then((outcome) => {
      if (outcome === "restarted") {
        notify({ title: "New Scan", description: "Your earlier scan could not be continued, so a new one has started." });
      } else if (!scan.sessionId) {
        failStart();
      }
      setProcessing(false);
      refresh();
    });
  }, [scan, phase]);

  useEffect(() => {
    if (phase === "result") {
      window.scrollTo(0, 0);
      resultHeading.current?.focus();
    }
  }, [phase]);

  // Before it wakes (the prerendered page) the first question works with a tap: its options are
  // plain radio buttons, and a press on Next is held and replayed once the island is up
  // (src/directives/interaction.ts). Until it has taken the scan over it shows what the page
  // showed (the first question), so nothing moves when it wakes.
  const shown = phase === "loading" ? null : scan;

  // The focus follows the reader to the question they moved to, on its chosen answer (the group's
  // own stop) or its first: arrows choose there and Enter goes on. Without this it fell to the page
  // as the old question went, and the next Tab started over from the header (issue 44: 4).
  useEffect(() => {
    const fieldset = questionSet.current;
    if (!focusQuestion.current || phase !== "questions" || !fieldset) return;
    focusQuestion.current = false;
    // A reader who scrolled down to Next sees the new question from its start, clear of the sticky
    // header (the legend's scroll margin: 4 rem).
    const legend = fieldset.querySelector("legend");
    if (legend && legend.getBoundingClientRect().top < 64) legend.scrollIntoView({ block: "start" });
    (fieldset.querySelector<HTMLInputElement>("input:checked") ?? fieldset.querySelector<HTMLInputElement>("input"))?.focus();
  }, [phase, shown?.index]);

  if (phase === "result" && result) {
    return (
      <Frame>
        <h1 ref={resultHeading} tabIndex={-1} className="font-serif text-4xl outline-none">
          Scan Complete
        </h1>
        <ResultBody result={result} />
        {result.resultUrl && <ResultLink path={result.resultUrl} />}
        <div className="mt-10 flex flex-wrap gap-3">
          <a className={primary} href={scheduleUrl} target="_blank" rel="noopener noreferrer">
            Claim Your Free Session<span className="sr-only"> (opens another site in a new tab)</span>
          </a>
          <a className={secondary} href="/" onClick={() => window.scrollTo(0, 0)}>
            Start The Journey
          </a>
        </div>
      </Frame>
    );
  }

  const index = shown?.index ?? 0;
  const question = questions[index]!;
  const number = question.id;
  const chosen = shown?.answers[number];
  const last = index === questions.length - 1;
  const percent = Math.round(((index + 1) / QUESTION_COUNT) * 100);

  const choose = (answer: Answer) => {
    if (!scan) return;
    scan.choose(number, answer);
    refresh();
  };

  const next = async (event?: SubmitEvent) => {
    event?.preventDefault();
    if (processing || !scan) return;
    // An answer picked before the scan was taken over is on the page, not yet in the scan.
    const picked = chosen ?? (event?.currentTarget.querySelector<HTMLInputElement>("input:checked")?.value as Answer | undefined);
    if (!picked) {
      notify({ title: "Please select an answer", description: "Choose one option before proceeding." });
      return;
    }
    if (!chosen) scan.choose(number, picked);
    setProcessing(true);
    const saved = await scan.save(number);
    // What a toast asked for is done: it goes (a new failure shows its own).
    if (saved) dismiss();
    else {
      notify({
        title: "Answer Not Saved",
        description: `We could not save your answer to question ${number}. It is kept here and will be sent again before your results.`,
        variant: "destructive",
      });
    }
    if (last) setPhase("contact");
    else {
      focusQuestion.current = true;
      scan.goTo(index + 1);
    }
    setProcessing(false);
    refresh();
  };

  // Enter on an answer goes on, as Next does (a browser may or may not submit a form from a radio button).
  const enterGoesOn = (event: KeyboardEvent<HTMLFieldSetElement>) => {
    const target = event.target as HTMLInputElement;
    if (event.key !== "Enter" || event.nativeEvent.isComposing || target.type !== "radio") return;
    event.preventDefault();
    target.form?.requestSubmit();
  };

  const previous = () => {
    if (scan && index > 0 && !processing) {
      focusQuestion.current = true;
      scan.goTo(index - 1);
      refresh();
    }
  };

  const submitContact = async (event: SubmitEvent) => {
    event.preventDefault();
    if (processing || !scan) return;
    const problem = contactProblem(name, email);
    // Each field says what is wrong with it, and the first such takes the focus; the toast says it for the form.
    const problems = contactFieldProblems(name, email);
    setFieldProblems(problems);
    if (problems.name) nameField.current?.focus();
    else if (problems.email) emailField.current?.focus();
    if (problem === "required") {
      notify({ title: "Required Information", description: "Please provide both name and email." });
      return;
    }
    if (problem === "invalid-email") {
      notify({ title: "Invalid Email", description: "Please enter a valid email address." });
      return;
    }
    if (problem === "too-long") {
      notify({
        title: "Too Long",
        description: `Please keep your name within ${NAME_MAX_LENGTH} characters and your email within ${EMAIL_MAX_LENGTH}.`,
      });
      return;
    }
    setProcessing(true);
    try {
      setResult(await scan.complete({ name: name.trim(), email: email.trim() }));
      dismiss();
      setPhase("result");
    } catch {
      notify({ title: "Error", description: "Failed to complete assessment. Please try again.", variant: "destructive" });
      focusQuestion.current = true;
      setPhase("questions");
    } finally {
      setProcessing(false);
    }
  };

  // A field marked wrong is judged again as the reader mends it, so its mark goes once it is right;
  // a field not marked yet waits for the next 'Get My Results'.
  const recheck = (values: { name: string; email: string }) => {
    const now = contactFieldProblems(values.name, values.email);
    setFieldProblems((marked) => ({
      ...(marked.name && now.name && { name: now.name }),
      ...(marked.email && now.email && { email: now.email }),
    }));
  };

  if (phase === "contact") {
    return (
      <Frame>
        <Title />
        <form className="mt-10 rounded-lg border border-line bg-panel p-6" onSubmit={submitContact} noValidate>
          <h2 className="text-2xl font-semibold">One Final Step</h2>
          <p className="mt-2 text-muted">Enter your name and email to see your results.</p>
          <ContactField
            ref={nameField}
            id="scan-name"
            label="Name"
            problem={fieldProblems.name}
            name="name"
            autoComplete="name"
            autoFocus
            maxLength={NAME_MAX_LENGTH}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              recheck({ name: e.target.value, email });
            }}
            disabled={processing}
          />
          <ContactField
            ref={emailField}
            id="scan-email"
            label="Email"
            problem={fieldProblems.email}
            name="email"
            type="email"
            autoComplete="email"
            maxLength={EMAIL_MAX_LENGTH}
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              recheck({ name, email: e.target.value });
            }}
            disabled={processing}
          />
          <button type="submit" className={`${primary} mt-6 w-full`} disabled={processing}>
            {processing ? "Analyzing..." : "Get My Results"}
          </button>
        </form>
      </Frame>
    );
  }

  return (
    <Frame>
      <Title />
      {index === 0 && (
        // What the scan asks of the reader, before they begin (issue 34: 4).
        <p className="mt-4 text-muted" data-testid="scan-intro">
          {QUESTION_COUNT} questions, about {SCAN_MINUTES} minutes. Your name and email are asked at the end, before your result.
        </p>
      )}
      <div className="mt-8">
        <div className="flex items-baseline justify-between gap-3 text-sm text-muted">
          <p aria-live="polite" data-testid="progress-text">
            {index + 1} of {QUESTION_COUNT}
          </p>
          {/* For whoever answers by keyboard, shown while an answer has the keyboard's focus. */}
          <p className="invisible group-has-[fieldset_input:focus-visible]/scan:visible" data-testid="scan-keys">
            Arrow keys choose, Enter goes on
          </p>
        </div>
        <div
          role="progressbar"
          aria-label="Scan progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="mt-2 h-1.5 w-full overflow-hidden rounded-full bg-line"
        >
          <div className="h-full bg-accent transition-[width]" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <form className="mt-8" onSubmit={next}>
        <fieldset key={number} ref={questionSet} onKeyDown={enterGoesOn}>
          <legend className="scroll-mt-16 text-2xl font-semibold leading-snug">{question.text}</legend>
          <div className="mt-6 space-y-3">
            {question.options.map((option) => (
              <label
                key={option.value}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-line p-4 transition hover:bg-panel has-[:checked]:border-accent has-[:checked]:bg-panel has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent"
              >
                <input
                  type="radio"
                  name={`question-${number}`}
                  value={option.value}
                  checked={chosen === option.value}
                  onChange={() => choose(option.value)}
                  className="mt-1"
                />
                <span>
                  <span className="mr-2 font-semibold">{option.value}.</span>
                  {option.text}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        {/* Always in reach (issue 34: 5): on a phone the bar stays at the bottom of the viewport, above the home indicator. */}
        <div className="scan-bar sticky bottom-0 z-10 -mx-4 mt-8 flex items-center justify-between gap-3 border-t border-line bg-page px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:px-0 sm:pt-0 sm:pb-0">
          <button type="button" className={secondary} onClick={previous} disabled={index === 0 || processing}>
            Previous
          </button>
          {/* aria-disabled while it works, not disabled: a pressed Next keeps the focus until the next question takes it. */}
          <button type="submit" className={primary} aria-disabled={!chosen || processing || undefined}>
            {last ? "Complete Scan" : "Next"}
          </button>
        </div>
      </form>
    </Frame>
  );
}

function Frame({ children }: { children: ReactNode }) {
  return <div className="group/scan page-column py-12">{children}</div>;
}

interface ContactFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  /** What is wrong with the value, said beside the field; absent when it is fine. */
  problem?: string;
  ref: Ref<HTMLInputElement>;
}

/** A field of 'One Final Step', marked (aria-invalid, and its words tied to it) while its value is wrong. */
function ContactField({ id, label, problem, ...input }: ContactFieldProps) {
  const problemId = `${id}-problem`;
  return (
    <>
      <label className="mt-4 block text-sm font-medium first-of-type:mt-6" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        className="mt-1 w-full rounded-md border border-line bg-transparent px-3 py-2 aria-invalid:border-destructive"
        {...input}
      />
      {problem && (
        <p id={problemId} className="mt-1 text-sm text-destructive">
          {problem}
        </p>
      )}
    </>
  );
}

function Title() {
  return (
    <header>
      {/* In the type of every page's title (/about's, /apply's: issue 44: 7). */}
      <p className="text-xs uppercase tracking-widest text-muted">Self-assessment</p>
      <h1 className="mt-3 font-serif text-4xl">Mental Operating System Scan</h1>
    </header>
  );
}
