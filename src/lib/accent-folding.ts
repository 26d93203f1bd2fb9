/**
 * Search forgives accents (issue 44: 5): "jeza" finds "jeża", "zazolc" finds "Zażółć".
 *
 * - The locked levels' search folds text and words in SQL, with `fold_accents` (migration 0020):
 *   each letter of a fixed list (ACCENTED_LETTERS: Polish, Western European, Czech and Slovak,
 *   Hungarian, Romanian, Croatian, Baltic and Turkish ones, both cases) written as its plain
 *   letter, one for one, so a folded text is as long as the text. Ligatures (ß, æ, œ) are not on
 *   it: they would fold to two letters.
 * - The open level's static index (Pagefind) folds every letter Unicode decomposes by itself (é is
 *   e and a mark, which it drops), and `foldAccents` folds as it does, plus the letters Unicode
 *   does not decompose (ł, ø, đ). Both fold every letter of the list alike (accent-folding.test.ts
 *   and, against the SQL function, tests/api/search.test.ts). The browser ranks both sources'
 *   results with it (search/merge-results.ts), and no table of letters is in its code.
 */

/** The letters `fold_accents` folds, in the order of FOLDED_LETTERS. */
export const ACCENTED_LETTERS =
  "ąćęłńóśźżàáâãäåçèéêëìíîïñòôõöøùúûüýÿčďěňřšťůžőűĺľŕășțşţđāēīōūėįųğĄĆĘŁŃÓŚŹŻÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÔÕÖØÙÚÛÜÝŸČĎĚŇŘŠŤŮŽŐŰĹĽŔĂȘȚŞŢĐĀĒĪŌŪĖĮŲĞ";
/** What each of ACCENTED_LETTERS folds to. */
export const FOLDED_LETTERS =
  "acelnoszzaaaaaaceeeeiiiinooooouuuuyycdenrstuzoullraststdaeioueiugACELNOSZZAAAAAACEEEEIIIINOOOOOUUUUYYCDENRSTUZOULLRASTSTDAEIOUEIUG";

/** Latin letters with a stroke, which Unicode does not decompose, and their plain letters. */
const UNDECOMPOSED = new Map([
  ["ł", "l"],
  ["Ł", "L"],
  ["ø", "o"],
  ["Ø", "O"],
  ["đ", "d"],
  ["Đ", "D"],
]);
const UNDECOMPOSED_LETTERS = /[łŁøØđĐ]/g;
/** The marks Pagefind drops: all but Japanese kana's voicing marks, which change the letter. */
const MARKS = /(?![\u3099\u309A])\p{M}/gu;

/** `text` with its letters written without their diacritics ("Zażółć" gives "Zazolc"). */
export function foldAccents(text: string): string {
  return text
    .normalize("NFD")
    .replace(MARKS, "")
    .normalize("NFC")
    .replace(UNDECOMPOSED_LETTERS, (letter) => UNDECOMPOSED.get(letter)!);
}

/**
 * Pagefind keeps ł, ø and đ as they are, so "zazolc" would not find "Zażółć": the index's text and
 * the query write them as their plain letter and an overlay mark, which Pagefind drops like any
 * other mark; the results' text is written back before it is shown.
 */
const OVERLAY = "\u0335";
const WRITTEN_BACK = new Map(Array.from(UNDECOMPOSED, ([letter, plain]) => [plain + OVERLAY, letter]));
const OVERLAID = /[lLoOdD]\u0335/g;

/** `text` as the static index holds it and is asked: "Zażółć" gives "Zażól\u0335ć". */
export function spellForStaticIndex(text: string): string {
  return text.replace(UNDECOMPOSED_LETTERS, (letter) => UNDECOMPOSED.get(letter)! + OVERLAY);
}

/** The static index's text (spellForStaticIndex) as it was written. */
export function spellFromStaticIndex(text: string): string {
  return text.replace(OVERLAID, (pair) => WRITTEN_BACK.get(pair)!);
}
