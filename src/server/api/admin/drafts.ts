/**
 * Drafts and scheduled publishing (issue 14), for chapters and subsections alike ({kind} is
 * `chapters` or `subsections`). Each checks the admin session first; a publish goes out as an
 * edit does (purge, rebuild when the list changed).
 *   POST   /api/admin/{kind}/{id}/publish     200 the item, published now (409: no draft)
 *   PUT    /api/admin/{kind}/{id}/schedule    {publishAt: ISO time | null}: 200 the item
 *   DELETE /api/admin/{kind}/{id}/draft       200 the item, its pending draft dropped (404: none)
 */
import { scheduleInput } from "../../../lib/content-schemas.ts";
import { requireAdmin } from "../../access/admin.ts";
import { adminNow } from "../../admin/clock.ts";
import { discardDraft, publishItem, scheduleDraft } from "../../admin/drafts.ts";
import type { ItemKind } from "../../admin/revisions.ts";
import { database } from "../../db/index.ts";
import { notFound } from "../../http/errors.ts";
import { readJson } from "../../http/request.ts";
import { json, route } from "../../http/respond.ts";
import { schedulePublish } from "../../publish/publisher.ts";
import { parseId } from "./ids.ts";

/** `chapters` or `subsections` in a path, as the kind of item; 404 for anything else. */
export function parseKind(value: string): ItemKind {
  if (value === "chapters") return "chapter";
  if (value === "subsections") return "subsection";
  throw notFound(`There is no /api/admin/${value.slice(0, 40)}; use chapters or subsections.`);
}

/** POST /api/admin/{kind}/{id}/publish */
export const adminPublishDraft = route<[kind: string, id: string]>({
  POST: async (request, kind, id) => {
    const admin = await requireAdmin(request);
    const db = await database();
    const item = await publishItem(db, parseKind(kind), parseId(id), { now: adminNow(), by: admin.email });
    await schedulePublish(db);
    return json(item);
  },
});

/** PUT /api/admin/{kind}/{id}/schedule */
export const adminScheduleDraft = route<[kind: string, id: string]>({
  PUT: async (request, kind, id) => {
    await requireAdmin(request);
    const itemKind = parseKind(kind);
    const itemId = parseId(id);
    const { publishAt } = await readJson(request, scheduleInput);
    const item = await scheduleDraft(await database(), itemKind, itemId, publishAt ? new Date(publishAt) : null, adminNow());
    return json(item);
  },
});

/** DELETE /api/admin/{kind}/{id}/draft */
export const adminDiscardDraft = route<[kind: string, id: string]>({
  DELETE: async (request, kind, id) => {
    await requireAdmin(request);
    return json(await discardDraft(await database(), parseKind(kind), parseId(id)));
  },
});
