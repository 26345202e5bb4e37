import { Option, Schema, Struct } from "effect"
import { type ReceiveHandle, receiveHandlePattern } from "../identity/model.ts"
import { Mode, TeamId } from "../shared/model.ts"

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
  return mode === undefined || !receiveHandlePattern.test(handle) ? Option.none() : Option.some({ handle, mode })
}

/** A team's receive address in one mode. */
export const ReceiveAddress = Schema.Struct({
  address: Schema.String.annotate({
    description: "The address (`name-xxxx@svc` live, `name-xxxx@test.svc` test).",
    examples: ["acme-7k2q@svc"]
  }),
  teamId: TeamId,
  teamName: Schema.String.annotate({
    description: "The name of the team receiving at the address.",
    examples: ["Acme Inc."]
  }),
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
  object: Schema.Literal("receive_address").annotate({ description: "Always `receive_address`." }),
  ...Struct.omit(ReceiveAddress.fields, ["teamId"])
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
