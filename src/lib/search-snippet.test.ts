import { describe, expect, it } from "vitest";
import { passageSnippet, withEllipses, type SnippetPart } from "./search-query.ts";

const text = (parts: SnippetPart[]) => parts.map((part) => (part.mark ? `[${part.text}]` : part.text)).join("");

describe("a search result's snippet (issue 34: 9)", () => {
  const title = "The Inventory of a Reaction";
  const content = `${title} By now you have noticed the same reaction twice. Write down what it says, word for word.`;

  it("takes the title off a snippet that runs from it into the passage", () => {
    const parts: SnippetPart[] = [{ text: "of a Reaction By now you have " }, { text: "noticed", mark: true }, { text: " the same reaction" }];
    expect(text(passageSnippet(parts, content, title))).toBe("By now you have [noticed] the same reaction…");
  });

  it("marks a cut at either end with an ellipsis, and none where the passage starts or ends", () => {
    expect(text(passageSnippet([{ text: "the same " }, { text: "reaction", mark: true }, { text: " twice." }], content, title))).toBe("…the same [reaction] twice.…");
    expect(text(passageSnippet([{ text: "Write down what it " }, { text: "says", mark: true }, { text: ", word for word." }], content, title))).toBe(
      "…Write down what it [says], word for word.",
    );
    expect(text(passageSnippet([{ text: content }], content, title))).toBe("By now you have noticed the same reaction twice. Write down what it says, word for word.");
  });

  it("keeps a mark the title cut runs through, and assumes a cut where the snippet is not found", () => {
    expect(text(passageSnippet([{ text: "Reaction By", mark: true }, { text: " now you" }], content, title))).toBe("[By] now you…");
    expect(text(passageSnippet([{ text: "something else" }], content, title))).toBe("…something else…");
  });

  it("adds nothing to an empty snippet", () => {
    expect(withEllipses([], true, true)).toEqual([]);
  });
});
