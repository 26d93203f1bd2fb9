/**
 * The admin forms' schemas, shared by the browser (the /admin dialogs) and the server (the
 * /api/admin handlers), so a value the form accepts is exactly a value the server accepts
 * (SPEC.md section 5, issue 6). Messages are written to be shown beside the field.
 */
import { z } from "./zod.ts";
import { LEVELS } from "./levels.ts";
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

const SLUG_HINT = "use lowercase letters, digits and single hyphens (for example signal-and-noise)";

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

export const slugSchema = z
  .string({ error: "Slug is required" })
  .trim()
  .min(1, "Slug is required")
  .max(120, "Slug must be at most 120 characters")
  .regex(SLUG_PATTERN, `Slug: ${SLUG_HINT}`);

export const levelSchema = z.enum(LEVELS, { error: `Level must be one of ${LEVELS.join(", ")}` });

/** A chapter's slug: also never the address of one of the site's own pages. */
export const chapterSlugSchema = slugSchema.superRefine((slug, ctx) => {
  const problem = reservedSlugProblem(slug);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** A chapter as the Create/Edit Chapter dialogs send it (POST and PUT /api/admin/chapters). */
export const chapterInput = z.object({
  slug: chapterSlugSchema,
  title: text("Title", 200),
  content: text("Content", 100_000),
  readingTime: wholeNumber("Reading time", 600),
  order: wholeNumber("Order", 100_000),
  level: levelSchema.default("Operator"),
});

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
      ),
  ])
  .optional();

/** A subsection as the Add/Edit Subsection dialogs send it (POST and PUT /api/admin/subsections). */
export const subsectionInput = z.object({
  chapterId: z.number({ error: "Chapter is required" }).int("Chapter is required").positive("Chapter is required"),
  title: text("Title", 200),
  content: text("Content", 100_000),
  photo: photoSchema,
  photoAlt: z.string().max(300, "Photo description must be at most 300 characters").nullable().optional(),
  /** Absent on create: the chapter's count of live subsections (SPEC.md section 5). */
  order: wholeNumber("Order", 100_000).optional(),
  /** Absent or empty: made from the title. */
  slug: z.union([z.literal(""), slugSchema]).optional(),
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

/** POST /api/admin/access-codes: a new code for a level; the login is generated when absent. */
export const accessCodeInput = z.object({
  level: levelSchema,
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
