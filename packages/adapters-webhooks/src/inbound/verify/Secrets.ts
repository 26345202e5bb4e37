/** Splits a comma-separated secret setting into its non-empty, trimmed entries (several during rotation). */
export const parseSecretList = (raw: string | undefined): ReadonlyArray<string> =>
  (raw ?? "")
    .split(",")
    .map((secret) => secret.trim())
    .filter((secret) => secret.length > 0)

/** Reads a setting that is one value as a whole (e.g. a JWKS JSON document, which contains commas). */
export const parseSingleSecret = (raw: string | undefined): ReadonlyArray<string> => {
  const trimmed = raw?.trim() ?? ""
  return trimmed.length > 0 ? [trimmed] : []
}
