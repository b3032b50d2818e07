// How a report's sentences write numbers and counted things: shared by every message, so that they
// agree ("1 warning", "45,889 warnings").

/** `word` as `n` of it are said: `plural(1, 'row')` is "row", `plural(3, 'row')` "rows". */
export const plural = (n: number, word: string, many = `${word}s`): string => (n === 1 ? word : many)

/** `n` with a comma every three digits (45,889), as en-US writes it, without loading ICU's number formats (~16 ms). */
export const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
