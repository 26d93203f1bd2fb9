/** A result description rendered as SPEC.md section 4 says (see src/lib/assessment/description.ts). */
import { parseDescription } from "../../lib/assessment/description.ts";

export default function ResultDescription({ text }: { text: string }) {
  return (
    <div className="space-y-5 font-serif text-lg leading-relaxed">
      {parseDescription(text).map((block, i) => {
        switch (block.kind) {
          case "paragraph":
            return <p key={i}>{block.text}</p>;
          case "bullets":
            return (
              <section key={i}>
                <h3 className="font-sans text-base font-semibold tracking-wide">{block.heading}</h3>
                <ul className="book-list mt-2 space-y-1">
                  {block.items.map((item, j) => (
                    <li key={j}>{item}</li>
                  ))}
                </ul>
              </section>
            );
          case "lines":
            return (
              <section key={i}>
                <h3 className="font-sans text-base font-semibold tracking-wide">{block.heading}</h3>
                {block.lines.map((line, j) => (
                  <p key={j} className="mt-2">
                    {line}
                  </p>
                ))}
              </section>
            );
          case "quote":
            return (
              <blockquote key={i} className="border-l-2 border-accent pl-4">
                <p className="italic">{block.text}</p>
              </blockquote>
            );
        }
      })}
    </div>
  );
}
