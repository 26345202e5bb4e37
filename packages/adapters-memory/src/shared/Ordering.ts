/** Orders rows by `key` ascending, then by id: the soonest-first order of a queue. */
export const byThenId =
  <A extends { readonly id: string }>(key: (a: A) => string) =>
  (a: A, b: A) =>
    key(a) !== key(b) ? (key(a) < key(b) ? -1 : 1) : a.id < b.id ? -1 : 1
