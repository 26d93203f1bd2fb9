/**
 * Signing in to the admin panel, or creating the first admin with the one-time setup link
 * (/admin?setup=TOKEN) while no admin exists. Failures show as toasts.
 */
import { useState, type SubmitEvent } from "react";
import { ADMIN_PASSWORD_MIN, adminAccountInput } from "../../lib/content-schemas.ts";
import { setUpFirstAdmin, signIn } from "../../stores/admin-session.ts";
import Field from "./Field.tsx";
import { useFieldErrors } from "./form-errors.ts";
import { card, input, primary } from "./ui.ts";

export default function SignIn({ setupToken }: { setupToken: string | null }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  // Only the setup form is checked here; signing in leaves the judging to the server.
  const { errors, validate } = useFieldErrors(adminAccountInput, { email, password });
  const setup = setupToken !== null;
  const ready = email.trim() !== "" && password !== "" && !pending;

  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    if (!ready) return;
    if (setup) {
      const data = validate();
      if (!data) return;
      setPending(true);
      const ok = await setUpFirstAdmin(setupToken, data.email, data.password);
      setPending(false);
      if (ok) history.replaceState(null, "", "/admin");
      return;
    }
    setPending(true);
    const ok = await signIn(email.trim(), password);
    setPending(false);
    if (!ok) setPassword("");
  }

  return (
    <div className="mx-auto w-full max-w-md px-5 py-16">
      <section className={card} aria-labelledby="admin-sign-in-title">
        <h1 id="admin-sign-in-title" className="font-serif text-2xl">
          {setup ? "Create the first admin" : "Admin Sign In"}
        </h1>
        {setup && <p className="mt-2 text-sm text-[var(--color-muted)]">No admin account exists yet. This one-time link creates the first one.</p>}
        <form className="mt-6 space-y-4" onSubmit={(e) => void onSubmit(e)} noValidate>
          <Field label="Email" error={errors.email}>
            <input className={input} type="email" name="email" autoComplete={setup ? "email" : "username"} value={email} disabled={pending} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <Field label="Password" hint={setup ? `At least ${ADMIN_PASSWORD_MIN} characters.` : undefined} error={errors.password}>
            <input
              className={input}
              type="password"
              name="password"
              autoComplete={setup ? "new-password" : "current-password"}
              value={password}
              disabled={pending}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          <button type="submit" className={`${primary} w-full`} disabled={!ready}>
            {pending ? (setup ? "Creating..." : "Signing in...") : setup ? "Create Admin" : "Sign In"}
          </button>
        </form>
      </section>
    </div>
  );
}
