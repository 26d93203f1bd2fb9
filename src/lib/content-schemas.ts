/**
 * The admin forms' schemas, shared by the browser (the /admin dialogs) and the server (the
 * /api/admin handlers), so a value the form accepts is exactly a value the server accepts
 * (SPEC.md section 5, issue 6). Messages are written to be shown beside the field.
 */
import { z } from "./zod.ts";
import { DEFAULT_LEVEL, LEVELS, LOCKED_LEVELS } from "./levels.ts";
import { reservedSlugProblem, SLUG_PATTERN } from "./slug.ts";

/**
 * A form's number field as a whole number: a non-numeric value becomes 0 (SPEC.md section 5).
 * A decimal is cut to its whole part ("3.7" → 3), as parseInt does.
 */
export function toWholeNumber(value: unknown): number {
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : 0;
  if (typeof value !== "string") return 0;
  const parsed = Number.parseInt(value.trim(), 10);
  return Number.isNaN(parsed) ? 0 : parsed;
}

const wholeNumber = (field: string, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(0, `${field} must be 0 or more`)
    .max(max, `${field} must be at most ${max}`);

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .refine((value) => value.trim().length > 0, `${field} is required`)
    .refine((value) => value.length <= max, `${field} must be at most ${max} characters`);

/** A one-line text such as a title: stored trimmed (issue 22), required, at most `max` characters. */
const line = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

export const slugSchema = z
  .string({ error: "Slug is required" })
  .trim()
  .min(1, "Slug is required")
  .max(120, "Slug must be at most 120 characters")
  .regex(SLUG_PATTERN, "Use only lowercase letters, digits and single hyphens, like signal-and-noise");

export const levelSchema = z.enum(LEVELS, { error: `Level must be one of ${LEVELS.join(", ")}` });

/** A chapter's slug: also never the address of one of the site's own pages. */
export const chapterSlugSchema = slugSchema.superRefine((slug, ctx) => {
  const problem = reservedSlugProblem(slug);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** The longest teaser of a locked chapter (a sentence or two: it is shown in lists). */
export const TEASER_MAX_LENGTH = 300;

/**
 * A locked chapter's optional teaser: words written for readers without access, never its content.
 * Empty or null clears it; absent (an older client) leaves it as it was.
 */
export const teaserSchema = z
  .union([z.null(), z.string().trim().max(TEASER_MAX_LENGTH, `Teaser must be at most ${TEASER_MAX_LENGTH} characters`)], {
    error: "Teaser must be text (or empty)",
  })
  .transform((value) => (value === "" ? null : value))
  .optional();

/** A chapter as the Create/Edit Chapter dialogs send it (POST and PUT /api/admin/chapters). */
export const chapterInput = z.object({
  slug: chapterSlugSchema,
  title: line("Title", 200),
  content: text("Content", 100_000),
  readingTime: wholeNumber("Reading time", 600),
  order: wholeNumber("Order", 100_000),
  level: levelSchema.default("Operator"),
  teaser: teaserSchema,
});

/**
 * Whether a site path names a file plainly: no part that is `.` or `..` (as written or
 * percent-encoded), no encoded `/` or `\`, no backslash and no control character. A path such as
 * `/uploads/x%2F..%2F..%2Fevil` is refused: decoded, it climbs out of its folder, and the book
 * export writes a photo under the last part of its address (issue 21: 5).
 */
export function isPlainSitePath(path: string): boolean {
  const pathPart = path.split(/[?#]/)[0]!;
  if (/\\|%2f|%5c/i.test(pathPart)) return false;
  return pathPart.split("/").every((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    return decoded !== "." && decoded !== ".." && !/[\u0000-\u001f\u007f]/.test(decoded);
  });
}

/**
 * A photo reference: empty (no photo), a path on this site (such as /uploads/abc.webp, which
 * POST /api/upload answers) or an https URL.
 */
export const photoSchema = z
  .union([
    z.literal(""),
    z.null(),
    z
      .string()
      .trim()
      .max(2000, "Photo URL must be at most 2000 characters")
      .refine(
        (value) => (value.startsWith("/") && !value.startsWith("//")) || /^https:\/\/[^\s/]+\S*$/i.test(value),
        "Photo must be an uploaded image or an https:// URL",
      )
      .refine(
        (value) => !value.startsWith("/") || isPlainSitePath(value),
        "Photo address must not contain . or .. parts, or an encoded / or \\ (such as %2F): use the address the upload gave",
      ),
  ])
  .optional();

/** A subsection as the Add/Edit Subsection dialogs send it (POST and PUT /api/admin/subsections). */
export const subsectionInput = z.object({
  chapterId: z.number({ error: "Chapter is required" }).int("Chapter is required").positive("Chapter is required"),
  title: line("Title", 200),
  content: text("Content", 100_000),
  photo: photoSchema,
  photoAlt: z.string().max(300, "Photo description must be at most 300 characters").nullable().optional(),
  /** Absent on create: the chapter's count of live subsections (SPEC.md section 5). */
  order: wholeNumber("Order", 100_000).optional(),
  /** Absent or empty: made from the title. */
  slug: z.union([z.literal(""), slugSchema]).optional(),
});

/**
 * How a chapter or subsection is saved (issue 14), sent beside its fields: `draft: true` keeps it
 * from readers (a new or draft item stays a draft; a published one keeps its live text and holds
 * this as a pending draft); `publishAt` publishes the draft at that time. Absent: saved and published.
 */
export const saveOptions = z
  .object({
    draft: z.boolean({ error: "draft must be true or false" }).optional(),
    publishAt: z.iso
      .datetime({ offset: true, error: "publishAt must be a date and time with its zone, like 2027-01-31T09:00:00Z" })
      .nullable()
      .optional(),
  })
  .refine((value) => !value.publishAt || value.draft === true, { message: "only a draft can be scheduled", path: ["publishAt"] });

export const chapterSave = z.intersection(chapterInput, saveOptions);
export const subsectionSave = z.intersection(subsectionInput, saveOptions);
export type SaveOptions = z.infer<typeof saveOptions>;

/** POST /api/admin/{chapters|subsections}/{id}/schedule: publish the draft at a time, or never (null). */
export const scheduleInput = z.object({
  publishAt: z.iso
    .datetime({ offset: true, error: "publishAt must be a date and time with its zone, like 2027-01-31T09:00:00Z" })
    .nullable(),
});

const idList = (field: string) =>
  z
    .array(z.number().int().positive(), { error: `${field} must be a list of ids` })
    .min(1, `${field} must not be empty`)
    .max(10_000, `${field} is too long`);

/** PUT /api/admin/chapters/reorder: every live chapter of one level, in the new order. */
export const chapterReorderInput = z.object({ chapterIds: idList("chapterIds") });

/** PUT /api/admin/subsections/reorder: every live subsection of one chapter, in the new order. */
export const subsectionReorderInput = z.object({
  chapterId: z.number({ error: "chapterId is required" }).int().positive(),
  subsectionIds: idList("subsectionIds"),
});

/** POST /api/admin/login. */
export const adminLoginInput = z.object({
  email: z.string({ error: "Email is required" }).trim().min(1, "Email is required").max(320, "Email is too long"),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(200, "Password is too long"),
});

export const ADMIN_PASSWORD_MIN = 10;

/** A new admin's email and password (the setup link and the CLI). */
export const adminAccountInput = z.object({
  email: z
    .string({ error: "Email is required" })
    .trim()
    .toLowerCase()
    .max(320, "Email is too long")
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "Email must be a valid email address"),
  password: z
    .string({ error: "Password is required" })
    .min(ADMIN_PASSWORD_MIN, `Password must be at least ${ADMIN_PASSWORD_MIN} characters`)
    .max(200, "Password must be at most 200 characters"),
});

/** POST /api/admin/setup: the one-time token from the setup link, and the first admin. */
export const adminSetupInput = adminAccountInput.extend({
  token: z.string({ error: "The setup token is missing" }).min(1, "The setup token is missing").max(200),
});

export const DEFAULT_MAX_SESSIONS = 3;
export const MOST_MAX_SESSIONS = 100;

/** How many sessions an access code may have at once: a sign-in beyond it ends the oldest. */
export const maxSessionsSchema = z
  .number({ error: "Session cap must be a number" })
  .int("Session cap must be a whole number")
  .min(1, "Session cap must be at least 1 (to stop a code, deactivate it)")
  .max(MOST_MAX_SESSIONS, `Session cap must be at most ${MOST_MAX_SESSIONS}`);

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** Whether `value` is an ISO date-time with its offset, on a day the calendar has (not 2027-02-30). */
function isIsoDateTime(value: string): boolean {
  const match = ISO_DATE_TIME.exec(value);
  if (!match || Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * When an access code ends (an ISO date-time with its offset), or null for never. It must be in
 * the future: a code cannot be issued or set already ended (deactivate it instead).
 */
export const expiresAtSchema = z
  .string({ error: "End date must be a date and time such as 2027-01-31T23:59:59Z, or null" })
  .refine(isIsoDateTime, {
    message: "End date must be a date and time such as 2027-01-31T23:59:59Z",
    abort: true,
  })
  .refine((value) => Date.parse(value) > Date.now(), "End date must be in the future")
  .nullable();

/** An access code's limits, as issuing it and PUT /api/admin/access-codes/{login}/settings take them. */
export const accessCodeLimits = z.object({
  /** Absent: never ends (on issue), unchanged (on update). */
  expiresAt: expiresAtSchema.optional(),
  /** Absent: DEFAULT_MAX_SESSIONS (on issue), unchanged (on update). */
  maxSessions: maxSessionsSchema.optional(),
});

/** POST /api/admin/access-codes: a new code for a level; the login is generated when absent. */
export const accessCodeInput = accessCodeLimits.extend({
  // Operator is open to everyone, so a code for it gives nothing (codes issued before still work).
  level: levelSchema.refine((level) => LOCKED_LEVELS.includes(level), {
    error: `An access code is for a locked level: ${LOCKED_LEVELS.join(" or ")}. ${DEFAULT_LEVEL} is open to everyone`,
  }),
  login: z
    .union([
      z.literal(""),
      z
        .string()
        .trim()
        .regex(
          /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/,
          "Login: 3 to 64 letters, digits, dots, hyphens or underscores, starting with a letter or digit",
        ),
    ])
    .optional(),
});

export type ChapterInput = z.infer<typeof chapterInput>;
/** What the chapter form holds before parsing (level may be absent). */
export type ChapterFormValues = z.input<typeof chapterInput>;
export type SubsectionInput = z.infer<typeof subsectionInput>;
export type ChapterReorderInput = z.infer<typeof chapterReorderInput>;
export type SubsectionReorderInput = z.infer<typeof subsectionReorderInput>;
export type AdminLoginInput = z.infer<typeof adminLoginInput>;
export type AdminSetupInput = z.infer<typeof adminSetupInput>;
export type AccessCodeInput = z.infer<typeof accessCodeInput>;
export type AccessCodeLimits = z.infer<typeof accessCodeLimits>;
