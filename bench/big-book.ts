/**
 * `npm run bench:book`: the book's figures with 1,000 chapters x 10 subsections beside the seed
 * book's (issue 45: 2), with their budgets, in one table (bench/lib/book-figures.ts): the site
 * build, publish to live (a chapter's text, and a rename that changes the chapter list), the
 * chapter drawer's tap on a 4x phone, the bytes of the open level's first search, the admin
 * panel's Chapters tab and a chapter page's first view. Figures, never pass/fail.
 * BOOK_CHAPTERS (default 1000), BOOK_PARTS (10), BOOK_RUNS (3, medians), BOOK_WORD ("attention"),
 * BOOK_PORT (4800: the seed book's server; the big book's takes the next). Writes bench/out/big-book.json.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bookFigures, bookOptionsFromEnv, bookTable } from "./lib/book-figures.ts";

const started = performance.now();
const figures = await bookFigures({ ...bookOptionsFromEnv(), log: (line) => console.log(line) });
console.log(`The book, seed against ${figures.big.chapters} chapters (measured on ${figures.big.page}; ${os.cpus().length} cores, Node ${process.version}; ${Math.round((performance.now() - started) / 1000)} s):`);
console.table(bookTable(figures));
const out = path.join(import.meta.dirname, "out");
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, "big-book.json"), `${JSON.stringify({ date: new Date().toISOString(), ...figures }, null, 2)}\n`);
