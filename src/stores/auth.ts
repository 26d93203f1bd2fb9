/**
 * The reader's auth state (SPEC.md sections 3 and 4), persisted in browser storage as
 * `systemAuth`. It only drives the UI: the server decides access on every request.
 * On load it restores from storage (removing corrupt data), then reconciles with the server's
 * view of the session cookie.
 */
import { atom } from "nanostores";
import { apiRequest, errorMessage } from "../lib/api-client.ts";
import { isLevel, type Level } from "../lib/levels.ts";
import { notify, notifyOnNextPage } from "../lib/notify.ts";

export interface AuthState {
  isAuthenticated: boolean;
  accessLevel: Level | null;
  isLoading: boolean;
}

export const AUTH_STORAGE_KEY = "systemAuth";

const signedOut: AuthState = { isAuthenticated: false, accessLevel: null, isLoading: false };

export const $auth = atom<AuthState>({ isAuthenticated: false, accessLevel: null, isLoading: true });

function persist(state: AuthState): void {
  try {
    if (state.isAuthenticated) {
      localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ isAuthenticated: true, accessLevel: state.accessLevel }));
    } else {
      localStorage.removeItem(AUTH_STORAGE_KEY);
    }
  } catch {
    // storage unavailable (private mode): the state lives for this page only
  }
}

function set(state: AuthState): void {
  $auth.set(state);
  persist(state);
}

/** The stored state, or signed out; corrupt stored data is removed. */
export function readStoredAuth(): AuthState {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(AUTH_STORAGE_KEY);
  } catch {
    return signedOut;
  }
  if (raw === null) return signedOut;
  try {
    const data = JSON.parse(raw) as { isAuthenticated?: unknown; accessLevel?: unknown };
    if (data.isAuthenticated === true && isLevel(data.accessLevel)) {
      return { isAuthenticated: true, accessLevel: data.accessLevel, isLoading: false };
    }
  } catch {
    // fall through: corrupt
  }
  try {
    localStorage.removeItem(AUTH_STORAGE_KEY);
  } catch {
    // ignore
  }
  return signedOut;
}

let restoring: Promise<void> | undefined;

/** Restores the state once per page: storage first (instant UI), then the server's answer. */
export function restoreAuth(): Promise<void> {
  restoring ??= (async () => {
    $auth.set(readStoredAuth());
    try {
      const session = await apiRequest<{ authenticated: boolean; level: Level | null }>("GET", "/api/auth/session");
      set(session.authenticated && isLevel(session.level) ? { isAuthenticated: true, accessLevel: session.level, isLoading: false } : signedOut);
    } catch {
      // Offline or server trouble: keep the stored state; the server still guards every request.
    }
  })();
  return restoring;
}

/** Logs in with an access code; toasts the outcome. Answers whether it succeeded. */
export async function login(code: string, password: string): Promise<boolean> {
  try {
    const { level } = await apiRequest<{ level: Level }>("POST", "/api/auth/validate", { login: code, password });
    set({ isAuthenticated: true, accessLevel: level, isLoading: false });
    notify({ title: "Access Granted", description: `Welcome to ${level} level` });
    return true;
  } catch (error) {
    notify({ title: "Access Denied", description: errorMessage(error), variant: "destructive" });
    return false;
  }
}

/**
 * Logs out on the server and here; toasts the outcome. With `next`, goes there once logged out,
 * and the toast shows on that page.
 */
export async function logout({ next }: { next?: string } = {}): Promise<void> {
  try {
    await apiRequest("POST", "/api/auth/logout");
    const notice = { title: "System Exit", description: "You have been logged out" };
    // Left for the next page first: a page that reacts to the signed-out state may leave at once.
    if (next) notifyOnNextPage(notice);
    set(signedOut);
    if (next) window.location.assign(next);
    else notify(notice);
  } catch {
    notify({ title: "Logout failed", variant: "destructive" });
  }
}
