/**
 * The rule for a new notebook passphrase (issue 42: 7), and the words of its meter: both from one
 * figure, the estimator's score (passphrase-strength.ts, loaded on demand). A passphrase is taken
 * at "Good" (3 of 4: at least 10^8 guesses) or "Strong", and never when it is the access code's
 * login or password (code-secrets.ts).
 */
import type { passphraseScore } from "./passphrase-strength.ts";

export const STRENGTH_LABELS = ["Very weak", "Weak", "Fair", "Good", "Strong"] as const;
/** The lowest score a passphrase is taken at. */
export const ACCEPTED_SCORE = 3;

export interface PassphraseStrength {
  /** 0 to 4. */
  score: number;
  label: (typeof STRENGTH_LABELS)[number];
  /** Strong enough to be taken. */
  ok: boolean;
}

export function strengthOf(score: number): PassphraseStrength {
  const clamped = Math.max(0, Math.min(4, Math.round(score)));
  return { score: clamped, label: STRENGTH_LABELS[clamped]!, ok: clamped >= ACCEPTED_SCORE };
}

let estimator: Promise<typeof passphraseScore> | undefined;
/** The estimator, fetched once. */
export function loadEstimator(): Promise<typeof passphraseScore> {
  return (estimator ??= import("./passphrase-strength.ts").then(
    (module) => module.passphraseScore,
    (error: unknown) => {
      // (Tried again next time: offline, say.)
      estimator = undefined;
      throw error;
    },
  ));
}

export const WEAK_PASSPHRASE = "Choose a stronger passphrase: it must be rated Good or Strong. A few words that do not go together make one.";
export const CODE_SECRET_PASSPHRASE = "Choose a passphrase of your own: not your access code or its password, which the operator knows.";
