/**
 * Run before every test file (vitest's setupFiles). Files share their worker's process and module
 * cache (isolate: false in vitest.config.ts), so what one file set for the whole process goes back
 * to how the worker started before the next file begins: the environment, the configuration and
 * the session key read from it, the `Netlify` global a function runtime leaves behind (the parity
 * test's Netlify Dev: with it, this code believes it runs on Netlify), vitest's own stand-ins (fake
 * timers, stubbed globals and variables, spies) and every stand-in of ours a test installs (clock,
 * photo store, publisher, purge, site pages).
 */
import { vi } from "vitest";
import { useAdminClock } from "../../src/server/admin/clock.ts";
import { resetSessionKey } from "../../src/server/auth/secret.ts";
import { useConfig } from "../../src/server/config.ts";
import { useLocalPurge } from "../../src/server/publish/cache-purge.ts";
import { useLocalPublisher } from "../../src/server/publish/publisher.ts";
import { useSitePages } from "../../src/server/pages/site-pages.ts";
import { usePhotoStore } from "../../src/server/uploads/photo-store.ts";

const STARTED = Symbol.for("system-book.tests.started-env");
const kept = globalThis as { [STARTED]?: Record<string, string | undefined> };
const started = (kept[STARTED] ??= { ...process.env });
for (const name of Object.keys(process.env)) if (!(name in started)) delete process.env[name];
Object.assign(process.env, started);
delete (globalThis as { Netlify?: unknown }).Netlify;

vi.useRealTimers();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
vi.restoreAllMocks();

useConfig(undefined);
resetSessionKey();
useAdminClock();
usePhotoStore(undefined);
useLocalPublisher(undefined);
useLocalPurge(undefined);
useSitePages(undefined);
