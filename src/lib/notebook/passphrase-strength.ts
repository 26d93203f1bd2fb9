/**
 * A passphrase's strength (issue 42: 7), from zxcvbn-ts, a maintained estimator of how many
 * guesses a passphrase would take against common passwords, keyboard patterns, repeats and
 * sequences. Its dictionary is about 200 KB compressed: this module is loaded only when a new
 * passphrase is typed (passphrase.ts `loadEstimator`), never with a page.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

const estimator = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });

/** The estimator's score, 0 (guessed at once) to 4 (over 10^10 guesses); `userInputs` are words it should treat as known. */
export function passphraseScore(passphrase: string, userInputs: string[] = []): number {
  return passphrase ? estimator.check(passphrase, userInputs).score : 0;
}
