/**
 * Keeping the server's copy of a scan in step with the reader's answers, so no answer is lost:
 *
 * - Each answer save is retried twice (after 0.5 s and 1.5 s) when the network or the server
 *   fails; a save that still fails is reported to the caller (the island tells the reader) and the
 *   answer stays marked unconfirmed.
 * - Before completing, every answered question not confirmed by the server is sent again, so all
 *   15 answers are stored before the result is asked for. A 400 naming unanswered questions makes
 *   it send everything once more and try again.
 * - When the server no longer knows the session (404) or it was completed elsewhere (409, e.g. in
 *   a duplicated tab), a new session is started and every answer given so far is sent to it.
 *   Only on a reload (`resume`) does such a session mean starting afresh: see `resume`.
 * - The completion is sent once: it is a mutation, and mutations are never retried (SPEC.md
 *   section 9). A failure (network, 5xx) is reported to the caller, which shows the spec's error
 *   toast; the reader may press 'Get My Results' again. (The server's completion is idempotent
 *   besides, so a completion that arrives twice still makes one submission and one delivery.)
 *
 * The state is mirrored to sessionStorage after every change (scan-storage.ts).
 */
import { ApiError } from "../../lib/api-client.ts";
import { QUESTION_NUMBERS, type Answer, type Answers, type ScanResult } from "../../lib/assessment/shape.ts";
import { clearScan, writeScan, type StoredScan } from "./scan-storage.ts";

export type ApiCall = <T>(method: string, url: string, body?: unknown) => Promise<T>;

export interface ScanSyncOptions {
  request: ApiCall;
  store: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
  /** Waits between attempts; tests pass one that does not wait. */
  sleep?: (ms: number) => Promise<void>;
  /** The pauses before each retry: two retries by default. */
  retryDelays?: number[];
}

export const RETRY_DELAYS_MS = [500, 1500];

type Outcome<T> = { ok: true; value: T } | { ok: false; gone: boolean; error: unknown };

export class ScanSync {
  sessionId: string | null = null;
  index = 0;
  answers: Answers = {};
  private confirmed = new Set<number>();
  private creating: Promise<boolean> | undefined;
  private readonly options: Required<ScanSyncOptions>;

  constructor(options: ScanSyncOptions, stored: StoredScan | null = null) {
    this.options = {
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      retryDelays: RETRY_DELAYS_MS,
      ...options,
    };
    if (stored) {
      this.sessionId = stored.sessionId;
      this.index = stored.index;
      this.answers = { ...stored.answers };
      this.confirmed = new Set(stored.confirmed.filter((n) => this.answers[n]));
    }
  }

  /** Whether the server has confirmed the current answer to question `n`. */
  isConfirmed(n: number): boolean {
    return this.confirmed.has(n);
  }

  /** Answered questions whose current answer the server has not confirmed, in order. */
  unconfirmed(): number[] {
    return QUESTION_NUMBERS.filter((n) => this.answers[n] && !this.confirmed.has(n));
  }

  /** Makes sure a session exists; false when none could be created (the caller tells the reader). */
  ensureSession(): Promise<boolean> {
    if (this.sessionId) return Promise.resolve(true);
    this.creating ??= (async () => {
      // The spec's payload (the server decides every one of these itself). Sent once: each request
      // that reaches the server makes a session, so a lost answer is not retried (SPEC.md section 9).
      const payload = { userId: null, completed: "false", score: null, scoreBreakdown: null };
      const created = await this.attempt(() => this.options.request<{ id: string }>("POST", "/api/assessment/session", payload), []);
      this.creating = undefined;
      if (!created.ok) return false;
      this.sessionId = created.value.id;
      this.persist();
      return true;
    })();
    return this.creating;
  }

  choose(n: number, answer: Answer): void {
    if (this.answers[n] === answer) return;
    this.answers = { ...this.answers, [n]: answer };
    this.confirmed.delete(n);
    this.persist();
  }

  goTo(index: number): void {
    this.index = index;
    this.persist();
  }

  /** Stores the answer to question `n`; false when it could not be stored (it stays unconfirmed). */
  async save(n: number): Promise<boolean> {
    const outcome = await this.send(n);
    if (outcome !== "gone") return outcome === "saved";
    return (await this.renewSession()) && this.flush(false);
  }

  /** Stores every answered question the server has not confirmed; true when all are stored. */
  async flush(mayRenew = true): Promise<boolean> {
    for (let guard = 0; guard < QUESTION_NUMBERS.length * 3; guard++) {
      const next = this.unconfirmed()[0];
      if (next === undefined) return true;
      const outcome = await this.send(next);
      if (outcome === "failed") return false;
      if (outcome === "gone") {
        if (!mayRenew || !(await this.renewSession())) return false;
        mayRenew = false;
      }
    }
    return this.unconfirmed().length === 0;
  }

  /**
   * After a reload: checks that the stored session still takes answers by sending one answer
   * (an unconfirmed one, else the latest). A session the server no longer knows, or one already
   * completed, means the scan starts afresh: "restarted". A network failure keeps the stored scan;
   * later saves retry.
   */
  async resume(): Promise<"resumed" | "restarted"> {
    if (!this.sessionId) {
      await this.ensureSession();
      return "resumed";
    }
    const answered = QUESTION_NUMBERS.filter((n) => this.answers[n]);
    const probe = this.unconfirmed()[0] ?? answered.at(-1);
    if (probe === undefined) return "resumed";
    const outcome = await this.send(probe);
    if (outcome === "gone") {
      this.restart();
      await this.ensureSession();
      return "restarted";
    }
    if (outcome === "saved") await this.flush(false);
    return "resumed";
  }

  /**
   * Makes sure all answers are stored, then completes the session and answers the result. Throws
   * when that cannot be done; the scan stays as it is, so the reader can try again.
   */
  async complete(contact: { name: string; email: string }): Promise<ScanResult> {
    if (!(await this.ensureSession()) || !(await this.flush())) throw new Error("Some answers could not be saved.");
    let renewed = false;
    let resent = false;
    for (;;) {
      const id = this.sessionId!;
      // Sent once (no retry delays): see the top of this file.
      const outcome = await this.attempt(
        () => this.options.request<ScanResult>("POST", `/api/assessment/session/${encodeURIComponent(id)}/complete`, contact),
        [],
      );
      if (outcome.ok) {
        this.restart();
        clearScan(this.options.store);
        return outcome.value;
      }
      if (outcome.gone && !renewed) {
        renewed = true;
        if ((await this.renewSession()) && (await this.flush(false))) continue;
      } else if (isUnanswered(outcome.error) && !resent) {
        // The server misses answers it had confirmed: send them all once more.
        resent = true;
        this.confirmed.clear();
        if (await this.flush(false)) continue;
      }
      throw outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
    }
  }

  /** Forgets the scan: no session, no answers, back to the first question. */
  restart(): void {
    this.sessionId = null;
    this.index = 0;
    this.answers = {};
    this.confirmed.clear();
    this.persist();
  }

  snapshot(): StoredScan {
    return { sessionId: this.sessionId, index: this.index, answers: { ...this.answers }, confirmed: [...this.confirmed] };
  }

  private async send(n: number): Promise<"saved" | "gone" | "failed"> {
    const answer = this.answers[n];
    if (!answer) return "failed";
    if (!(await this.ensureSession())) return "failed";
    const sessionId = this.sessionId!;
    const outcome = await this.attempt(() =>
      this.options.request("POST", "/api/assessment/response", { sessionId, questionNumber: n, answer }),
    );
    if (!outcome.ok) return outcome.gone ? "gone" : "failed";
    if (this.sessionId === sessionId && this.answers[n] === answer) {
      this.confirmed.add(n);
      this.persist();
    }
    return "saved";
  }

  /** A new session for the answers given so far: none of them is stored there yet. */
  private async renewSession(): Promise<boolean> {
    this.sessionId = null;
    this.confirmed.clear();
    this.persist();
    return this.ensureSession();
  }

  /** Runs `call`, retrying failures that may pass (network, 5xx); 404/409 mean the session is gone. */
  private async attempt<T>(call: () => Promise<T>, delays: readonly number[] = this.options.retryDelays): Promise<Outcome<T>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return { ok: true, value: await call() };
      } catch (error) {
        const status = error instanceof ApiError ? error.status : 0;
        if (status === 404 || status === 409) return { ok: false, gone: true, error };
        const retryable = status === 0 || status >= 500;
        if (!retryable || attempt >= delays.length) return { ok: false, gone: false, error };
        await this.options.sleep(delays[attempt]!);
      }
    }
  }

  private persist(): void {
    writeScan(this.options.store, this.snapshot());
  }
}

function isUnanswered(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && error.code === "unanswered_questions";
}
