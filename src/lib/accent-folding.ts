/**
 * Search forgives accents (issue 44: 5): "jeza" finds "jeża", "zazolc" finds "Zażółć".
 *
 * - The locked levels' search folds text and words in SQL, with `fold_accents` (migration 0020):
 *   each letter of a fixed list (ACCENTED_LETTERS: Polish, Western European, Czech and Slovak,
 *   Hungarian, Romanian, Croatian, Baltic and Turkish ones, both cases) written as its plain
 *   letter, one for one, so a folded text is as long as the text. Ligatures (ß, æ, œ) are not on
 *   it: they would fold to two letters.
 * - The open level's static index folds with `foldAccents` (src/lib/static-search-index.ts, decision
 *   0031): every letter Unicode decomposes (é is e and a mark, which it drops), and the letters
 *   Unicode does not decompose (ł, ø, đ). It folds every letter of the list as the SQL function does
 *   (accent-folding.test.ts and, against the SQL function, tests/api/search.test.ts). The browser
 *   also ranks both sources' results with it (search/merge-results.ts), and no table of letters is
 *   in its code.
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
/** The marks dropped: all but Japanese kana's voicing marks, which change the letter. */
const MARKS = /(?![\u3099\u309A])\p{M}/gu;

/** `text` with its letters written without their diacritics ("Zażółć" gives "Zazolc"). */
export function foldAccents(text: string): string {
  return text
    .normalize("NFD")
    .replace(MARKS, "")
    .normalize("NFC")
    .replace(UNDECOMPOSED_LETTERS, (letter) => UNDECOMPOSED.get(letter)!);
}
