import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminWebhookRoutes } from "../../src/server/api/admin/webhooks.ts";

// Every lead-webhook route of the admin panel in one function (one bundle to pack and keep warm).
export default serve((request) => adminWebhookRoutes(request));

export const config: Config = {
  path: [
    "/api/admin/webhooks",
    "/api/admin/webhooks/:id",
    "/api/admin/webhooks/:id/test",
    "/api/admin/webhook-deliveries",
    "/api/admin/webhook-deliveries/:id/resend",
  ],
};
