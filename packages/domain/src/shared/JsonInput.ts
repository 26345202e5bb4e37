/** The deepest nesting of arrays and objects accepted in a JSON body. */
export const MAX_JSON_DEPTH = 64

/** The message of a JSON body nested deeper than `MAX_JSON_DEPTH`. */
export const jsonTooDeepMessage = `the request body is not valid JSON: it nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`

/** The message of a string Postgres cannot store. */
export const invalidTextMessage = "must not contain NUL characters or unpaired UTF-16 surrogates"

/** Why a parsed JSON value is refused: nested too deep, or a key or string at `path` that Postgres cannot store. */
export type JsonInputIssue =
  | { readonly _tag: "TooDeep" }
  | { readonly _tag: "InvalidText"; readonly path: ReadonlyArray<string | number> }

const loneSurrogate = /\p{Cs}/u

/** Whether `text` can be stored as Postgres text: no NUL character and no unpaired UTF-16 surrogate. */
export const isStorableText = (text: string): boolean => !text.includes("\u0000") && !loneSurrogate.test(text)

/** The first reason to refuse a parsed JSON value (its depth, then every key and string), found iteratively. */
export const jsonInputIssue = (value: unknown): JsonInputIssue | undefined => {
  const pending: Array<{ readonly value: unknown; readonly path: ReadonlyArray<string | number> }> = [
    { value, path: [] }
  ]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next
    if (typeof value === "string") {
      if (!isStorableText(value)) return { _tag: "InvalidText", path }
    } else if (typeof value === "object" && value !== null) {
      if (path.length >= MAX_JSON_DEPTH) return { _tag: "TooDeep" }
      for (const [key, item] of Object.entries(value)) {
        const at = Array.isArray(value) ? Number(key) : key
        if (typeof at === "string" && !isStorableText(at)) return { _tag: "InvalidText", path: [...path, at] }
        pending.push({ value: item, path: [...path, at] })
      }
    }
  }
  return undefined
}
