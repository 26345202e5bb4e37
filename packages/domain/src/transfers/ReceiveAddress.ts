import { Option, Schema } from "effect"
import { Mode, TeamId } from "../shared/model.ts"
import { UNAMBIGUOUS_ALPHABET } from "./UnambiguousCodes.ts"

/** The longest slug of a team's name a handle starts with. */
export const SLUG_MAX_LENGTH = 20

/** The slug of a team with nothing usable in its name. */
export const FALLBACK_SLUG = "team"

/** How many random characters follow the slug. */
export const HANDLE_SUFFIX_LENGTH = 4

const handlePattern = new RegExp(`^[a-z0-9]+(?:-[a-z0-9]+)*-[${UNAMBIGUOUS_ALPHABET}]{${HANDLE_SUFFIX_LENGTH}}$`, "u")

/** A team's receive handle: the slug of its name, `-`, four unambiguous characters (`acme-7fk2`). */
export const ReceiveHandleText = Schema.String.check(
  Schema.isPattern(handlePattern, { message: "expected a slug, a hyphen and four unambiguous characters" })
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

/** The domain of each mode's addresses: a live key never reaches a test address and back. */
const DOMAINS = { live: "svc", test: "test.svc" } as const satisfies Record<Mode, string>

/** The address of a handle in a mode: `acme-7fk2@svc` (live), `acme-7fk2@test.svc` (test). */
export const receiveAddressOf = (handle: string, mode: Mode): string => `${handle}@${DOMAINS[mode]}`

/** The handle and mode of an address (case-insensitive); none when it is not an address of either mode. */
export const parseReceiveAddress = (
  address: string
): Option.Option<{ readonly handle: string; readonly mode: Mode }> => {
  const at = address.lastIndexOf("@")
  if (at < 0) return Option.none()
  const handle = address.slice(0, at).toLowerCase()
  const domain = address.slice(at + 1).toLowerCase()
  const mode = domain === DOMAINS.live ? "live" : domain === DOMAINS.test ? "test" : undefined
  return mode === undefined || !handlePattern.test(handle) ? Option.none() : Option.some({ handle, mode })
}

/** A team's receive address in one mode. */
export const ReceiveAddress = Schema.Struct({
  address: Schema.String,
  teamId: TeamId,
  teamName: Schema.String,
  mode: Mode
})
export type ReceiveAddress = typeof ReceiveAddress.Type

/** The address of a team's handle in `mode`. */
export const receiveAddressIn = (handle: ReceiveHandle, mode: Mode): ReceiveAddress => ({
  address: receiveAddressOf(handle.handle, mode),
  teamId: handle.teamId,
  teamName: handle.teamName,
  mode
})

/** A team's receive address in one mode, as clients see it. */
export const ReceiveAddressView = Schema.Struct({
  object: Schema.Literal("receive_address"),
  address: Schema.String,
  teamName: Schema.String,
  mode: Mode
})
export type ReceiveAddressView = typeof ReceiveAddressView.Type

/** The view of a receive address. */
export const receiveAddressView = (address: ReceiveAddress): ReceiveAddressView => ({
  object: "receive_address",
  address: address.address,
  teamName: address.teamName,
  mode: address.mode
})

/** No team receives at this address in the caller's mode (unknown, malformed, or of the other mode). */
export class ReceiveAddressNotFound extends Schema.TaggedError<ReceiveAddressNotFound>()("ReceiveAddressNotFound", {
  address: Schema.String
}) {}

/** The team has no receive handle: it does not exist (every team gets one when it is created). */
export class ReceiveHandleMissing extends Schema.TaggedError<ReceiveHandleMissing>()("ReceiveHandleMissing", {
  teamId: Schema.String
}) {}
