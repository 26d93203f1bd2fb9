/**
 * The level whose chapters the reader shows (SPEC.md section 4), stored as `selectedLevel`.
 * On load the stored level is kept only while the reader may access it; otherwise it resets to
 * Operator. Choosing a locked level sends the reader to /resume.
 */
import { atom } from "nanostores";
import { canAccess, DEFAULT_LEVEL, isLevel, resumeFor, type Level } from "../lib/levels.ts";
import { SELECTED_LEVEL_KEY } from "../lib/storage-keys.ts";
import { $auth } from "./auth.ts";

export const $selectedLevel = atom<Level>(DEFAULT_LEVEL);

function held(): Level | null {
  const auth = $auth.get();
  return auth.isAuthenticated ? auth.accessLevel : null;
}

function store(level: Level): void {
  $selectedLevel.set(level);
  try {
    localStorage.setItem(SELECTED_LEVEL_KEY, level);
  } catch {
    // storage unavailable
  }
}

/**
 * Reads the stored level, keeping it only if the current auth state allows it. Before the server
 * has answered about the session (`settled` false) the auth state is only what this browser
 * stored, which may be nothing for a member signed in (signed in through another tab's request,
 * or storage cleared): a level it does not reach is then not shown, and still kept in storage, for
 * the call once the answer is in to decide.
 */
export function restoreSelectedLevel(settled = true): void {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(SELECTED_LEVEL_KEY);
  } catch {
    // storage unavailable
  }
  if (isLevel(stored) && canAccess(held(), stored)) store(stored);
  else if (settled) store(DEFAULT_LEVEL);
  else $selectedLevel.set(DEFAULT_LEVEL);
}

/** Chooses a level; a level the reader may not access goes to /resume instead. Answers whether it was chosen. */
export function selectLevel(level: Level): boolean {
  if (!canAccess(held(), level)) {
    window.location.assign(resumeFor(level));
    return false;
  }
  store(level);
  return true;
}

// When the reader logs out (or loses access), a level they can no longer read falls back.
$auth.listen((auth) => {
  if (!auth.isLoading && !canAccess(auth.isAuthenticated ? auth.accessLevel : null, $selectedLevel.get())) {
    store(DEFAULT_LEVEL);
  }
});
