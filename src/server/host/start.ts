/**
 * `npm start` (src/server/host/serve.ts). Node's module loading is made lean first, before any
 * module of the server loads (src/server/host/lean-loading.ts).
 */
import { leanModuleLoading } from "./lean-loading.ts";

leanModuleLoading();
await import("./serve.ts");
