import { Schema } from "effect"
import { TeamId, UNAMBIGUOUS_ALPHABET } from "../shared/model.ts"

/** The longest slug of a team's name a handle starts with. */
export const SLUG_MAX_LENGTH = 20

/** The slug of a team with nothing usable in its name. */
export const FALLBACK_SLUG = "team"

/** How many random characters follow the slug. */
export const HANDLE_SUFFIX_LENGTH = 4

export const receiveHandlePattern = new RegExp(
  `^[a-z0-9]+(?:-[a-z0-9]+)*-[${UNAMBIGUOUS_ALPHABET}]{${HANDLE_SUFFIX_LENGTH}}$`,
  "u"
)

/** A team's receive handle: the slug of its name, `-`, four unambiguous characters (`acme-7fk2`). */
export const ReceiveHandleText = Schema.String.check(
  Schema.isPattern(receiveHandlePattern, { message: "expected a slug, a hyphen and four unambiguous characters" })
)

/**
 * A team's receive handle, unique across teams, from which its address in each mode is made. Stable: chosen once when
 * the team is created. `teamName` is the team's current name (read with it).
 */
export const ReceiveHandle = Schema.Struct({
  teamId: TeamId,
  teamName: Schema.String,
  handle: ReceiveHandleText,
  createdAt: Schema.String
})
export type ReceiveHandle = typeof ReceiveHandle.Type

/** The lower-case ASCII slug of a team name: letters and digits, single hyphens between words, bounded, never empty. */
export const slugOf = (name: string): string => {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, "-")
    .replace(/^-+|-+$/gu, "")
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/u, "")
  return slug === "" ? FALLBACK_SLUG : slug
}

/** The team has no receive handle: it does not exist (every team gets one when it is created). */
export class ReceiveHandleMissing extends Schema.TaggedError<ReceiveHandleMissing>()("ReceiveHandleMissing", {
  teamId: Schema.String
}) {}
