import { describe, expect, it } from "vitest";
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, contactProblem, contactSchema } from "./contact.ts";

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
