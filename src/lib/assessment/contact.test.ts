import { describe, expect, it } from "vitest";
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, contactFieldProblems, contactProblem, contactSchema } from "./contact.ts";

describe("contactProblem", () => {
  it.each([
    ["Ada", "ada@example.com", null],
    ["  Ada  ", "  a@b.co  ", null],
    ["", "ada@example.com", "required"],
    ["   ", "ada@example.com", "required"],
    ["Ada", "   ", "required"],
    ["Ada", "ada@example", "invalid-email"],
    ["Ada", "ada example@x.com", "invalid-email"],
    ["Ada", "@example.com", "invalid-email"],
    ["Ada", "ada@.com", "invalid-email"],
    ["Ada", "a@b.c", null],
    ["Ada", "ada@@x.com", "invalid-email"],
    ["x".repeat(NAME_MAX_LENGTH + 1), "ada@example.com", "too-long"],
    ["Ada", `${"x".repeat(EMAIL_MAX_LENGTH)}@x.com`, "too-long"],
  ])("%j / %j -> %s", (name, email, expected) => {
    expect(contactProblem(name, email)).toBe(expected);
  });
});

describe("contactFieldProblems", () => {
  it.each<[string, string, { name?: RegExp; email?: RegExp }]>([
    ["Ada", "ada@example.com", {}],
    ["  Ada  ", "  a@b.co  ", {}],
    ["", "", { name: /enter your name/, email: /enter your email/ }],
    ["   ", "ada@example.com", { name: /enter your name/ }],
    ["Ada", "ada@example", { email: /valid email/ }],
    ["", "ada@example", { name: /enter your name/, email: /valid email/ }],
    ["x".repeat(NAME_MAX_LENGTH + 1), "ada@example.com", { name: /within 100 characters/ }],
    ["Ada", `${"x".repeat(EMAIL_MAX_LENGTH)}@x.com`, { email: /within 254 characters/ }],
  ])("%j / %j", (name, email, expected) => {
    const problems = contactFieldProblems(name, email);
    expect(Object.keys(problems).sort()).toEqual(Object.keys(expected).sort());
    if (expected.name) expect(problems.name).toMatch(expected.name);
    if (expected.email) expect(problems.email).toMatch(expected.email);
  });

  it("marks a field exactly when the form as a whole has a problem", () => {
    for (const [name, email] of [["", ""], ["Ada", ""], ["Ada", "a@b"], ["Ada", "a@b.co"], ["x".repeat(101), "a@b.co"]] as const) {
      expect(Object.keys(contactFieldProblems(name, email)).length > 0).toBe(contactProblem(name, email) !== null);
    }
  });
});

describe("contactSchema", () => {
  it("trims both fields", () => {
    expect(contactSchema.parse({ name: "  Ada ", email: " ada@example.com " })).toEqual({ name: "Ada", email: "ada@example.com" });
  });

  it("names the field that is wrong", () => {
    const issue = (data: unknown) => contactSchema.safeParse(data).error?.issues[0];
    expect(issue({ name: " ", email: "a@b.co" })).toMatchObject({ path: ["name"], message: "is required" });
    expect(issue({ name: "Ada", email: "a b@c.de" })).toMatchObject({ path: ["email"] });
    expect(issue({ name: "Ada" })).toMatchObject({ path: ["email"], message: "is required" });
  });
});
