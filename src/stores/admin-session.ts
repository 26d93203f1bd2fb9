/**
 * The admin's session in the panel: loading, signed out (the sign-in form, or the first-admin
 * setup form when the server says no admin exists and the link carries a setup token), or signed
 * in. The server checks the admin cookie on every /api/admin call; this only drives the UI.
 */
import { atom } from "nanostores";
import { apiRequest, errorMessage } from "../lib/api-client.ts";
import { dismiss, notify } from "../lib/notify.ts";
import { forgetKeys } from "../lib/notebook/device-keys.ts";
import { OPERATOR_KEYS_DATABASE } from "../lib/storage-keys.ts";

/** The messaging key opened on this device (issue 43) leaves with the admin's session. */
const forgetOperatorKey = () => forgetKeys(OPERATOR_KEYS_DATABASE);

export type AdminSessionState =
  | { status: "loading" }
  | { status: "signed-out"; setupRequired: boolean }
  | { status: "signed-in"; email: string };

export const $adminSession = atom<AdminSessionState>({ status: "loading" });

interface SessionAnswer {
  authenticated: boolean;
  email: string | null;
  setupRequired: boolean;
}

/** Asks the server who is signed in. A failed check shows the sign-in form. */
export async function loadAdminSession(): Promise<void> {
  try {
    const session = await apiRequest<SessionAnswer>("GET", "/api/admin/session");
    $adminSession.set(
      session.authenticated && session.email
        ? { status: "signed-in", email: session.email }
        : { status: "signed-out", setupRequired: session.setupRequired },
    );
  } catch {
    $adminSession.set({ status: "signed-out", setupRequired: false });
  }
}

/** Signs in; a failure shows a toast with the server's message. Answers whether it worked. */
export async function signIn(email: string, password: string): Promise<boolean> {
  try {
    const answer = await apiRequest<{ email: string }>("POST", "/api/admin/login", { email, password });
    dismiss(); // an earlier 'Access Denied' is answered
    $adminSession.set({ status: "signed-in", email: answer.email });
    return true;
  } catch (error) {
    notify({ title: "Access Denied", description: errorMessage(error), variant: "destructive" });
    return false;
  }
}

/** Creates the first admin with the one-time setup token, which signs them in. */
export async function setUpFirstAdmin(token: string, email: string, password: string): Promise<boolean> {
  try {
    const answer = await apiRequest<{ email: string }>("POST", "/api/admin/setup", { token, email, password });
    $adminSession.set({ status: "signed-in", email: answer.email });
    notify({ title: "Success", description: "Admin account created" });
    return true;
  } catch (error) {
    notify({ title: "Setup failed", description: errorMessage(error), variant: "destructive" });
    return false;
  }
}

export async function signOut(): Promise<void> {
  try {
    await apiRequest("POST", "/api/admin/logout");
    // The messaging key opened on this device leaves with the admin (issue 43).
    await forgetOperatorKey();
    $adminSession.set({ status: "signed-out", setupRequired: false });
    notify({ title: "System Exit", description: "You have been logged out" });
  } catch {
    notify({ title: "Logout failed", variant: "destructive" });
  }
}

/** Called when an admin call answers 401: the session ended, so show the sign-in form again. */
export function sessionEnded(): void {
  void forgetOperatorKey();
  $adminSession.set({ status: "signed-out", setupRequired: false });
  notify({ title: "Session ended", description: "Sign in again to continue.", variant: "destructive" });
}
