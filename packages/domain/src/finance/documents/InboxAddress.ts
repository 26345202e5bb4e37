const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/iu

/** The team id in an inbox address's local part (`<team id>@…` or `anything+<team id>@…`), lower case; undefined when there is none. */
export const teamOfInboxAddress = (address: string): string | undefined => {
  const bare = /<([^>]*)>/u.exec(address)?.[1] ?? address
  const local = bare.split("@")[0] ?? ""
  return UUID.exec(local)?.[0]?.toLowerCase()
}
