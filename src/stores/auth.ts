/**
 * The reader's auth state (SPEC.md sections 3 and 4), persisted in browser storage as
 * `systemAuth`. It only drives the UI: the server decides access on every request.
 * On load it restores from storage (removing corrupt data), then takes the server's view of the
 * session cookie, which the page script (src/scripts/page.ts) settles on every page and stores: it
 * asks the server only when the browser holds a sign-in (the readable "signed in" cookie, or a
 * stored signed-in state), and takes an anonymous reader as signed out without asking.
 */
import { atom } from "nanostores";
import { apiRequest, errorMessage } from "../lib/api-client.ts";
import { isLevel, type Level } from "../lib/levels.ts";
import { notify, notifyOnNextPage } from "../lib/notify.ts";
import { SESSION_CHECKED } from "../lib/page-signals.ts";
import { AUTH_KEY } from "../lib/storage-keys.ts";
import { forgetThisDevice } from "../lib/notebook/device-keys.ts";

export interface AuthState {
  isAuthenticated: boolean;
  accessLevel: Level | null;
  isLoading: boolean;
}

const signedOut: AuthState = { isAuthenticated: false, accessLevel: null, isLoading: false };

export const $auth = atom<AuthState>({ isAuthenticated: false, accessLevel: null, isLoading: true });

/** The tier an admin's preview page shows (src/server/pages/preview-page.ts), if this is one. */
const previewTier = (): string | undefined => document.documentElement.dataset.previewTier;

function persist(state: AuthState): void {
  if (previewTier()) return; // a preview never touches the visitor's own stored session
  try {
    if (state.isAuthenticated) {
      localStorage.setItem(AUTH_KEY, JSON.stringify({ isAuthenticated: true, accessLevel: state.accessLevel }));
    } else {
      localStorage.removeItem(AUTH_KEY);
    }
  } catch {
    // storage unavailable (private mode): the state lives for this page only
  }
}

function set(state: AuthState): void {
  $auth.set(state);
  persist(state);
  // The header's links follow (global.css), as the page script set them on load.
  if (state.isAuthenticated) document.documentElement.setAttribute("data-auth", "in");
  else document.documentElement.removeAttribute("data-auth");
}

/** The stored state, or signed out; corrupt stored data is removed. */
export function readStoredAuth(): AuthState {
  const tier = previewTier();
  if (tier) return isLevel(tier) && tier !== "Operator" ? { isAuthenticated: true, accessLevel: tier, isLoading: false } : signedOut;
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(AUTH_KEY);
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
    localStorage.removeItem(AUTH_KEY);
  } catch {
    // ignore
  }
  return signedOut;
}

let restoring: Promise<void> | undefined;

/**
 * Restores the state once per page: storage first (instant UI), then the server's answer, which
 * the page script stores (it settles the session on every page, so this store never asks again).
 */
export function restoreAuth(): Promise<void> {
  restoring ??= new Promise((resolve) => {
    const settle = () => {
      $auth.set(readStoredAuth());
      resolve();
    };
    if (document.documentElement.hasAttribute(SESSION_CHECKED)) return settle();
    $auth.set(readStoredAuth());
    addEventListener(SESSION_CHECKED, settle, { once: true });
  });
  return restoring;
}

/** Logs in with an access code; toasts the outcome. Answers whether it succeeded. */
/** Signs in; answers null, or the refusal (its toast shown: SPEC.md section 8). */
export async function login(code: string, password: string): Promise<unknown> {
  try {
    const { level } = await apiRequest<{ level: Level }>("POST", "/api/auth/validate", { login: code, password });
    // Whatever a previous member left here goes; this one's code and password may not become their notebook's passphrase (issue 42).
    await forgetThisDevice();
    // (Loaded here, at sign-in only: no page carries it.)
    await import("../lib/notebook/code-secrets.ts").then(({ rememberCodeSecrets }) => rememberCodeSecrets(code, password)).catch(() => undefined);
    set({ isAuthenticated: true, accessLevel: level, isLoading: false });
    notify({ title: "Access Granted", description: `Welcome to ${level} level` });
    return null;
  } catch (error) {
    notify({ title: "Access Denied", description: errorMessage(error), variant: "destructive" });
    return error;
  }
}

/**
 * Logs out on the server and here; toasts the outcome. With `next`, goes there once logged out,
 * and the toast shows on that page.
 */
export async function logout({ next }: { next?: string } = {}): Promise<void> {
  try {
    await apiRequest("POST", "/api/auth/logout");
    // Everything kept for the member on this device leaves with the session (issues 32 and 42).
    await forgetThisDevice();
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
