import { Schema } from "effect"
import { Mode, TeamId } from "../shared/model.ts"
import { CryptoAsset, CryptoNetwork } from "./Network.ts"

/** An allow-listed destination's id. */
export const CryptoDestinationId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("CryptoDestinationId"))
export type CryptoDestinationId = typeof CryptoDestinationId.Type

/**
 * An address a human of the team allow-listed for payouts of one asset on one network, in one mode. Never edited:
 * removed (`removedAt`) and added again instead. The address is stored in its canonical form (EIP-55 for EVM
 * networks, base58 as given for Solana).
 */
export const CryptoDestination = Schema.Struct({
  id: CryptoDestinationId,
  teamId: TeamId,
  mode: Mode,
  name: Schema.String,
  network: CryptoNetwork,
  asset: CryptoAsset,
  address: Schema.String,
  createdBy: Schema.String,
  createdAt: Schema.String,
  removedAt: Schema.NullOr(Schema.String)
})
export type CryptoDestination = typeof CryptoDestination.Type

/** No destination of this id on the team's allow-list, in the mode asked (removed ones included). */
export class CryptoDestinationNotFound extends Schema.TaggedError<CryptoDestinationNotFound>()(
  "CryptoDestinationNotFound",
  { id: Schema.String }
) {}

/** A new destination is malformed: `field` names the input at fault. */
export class CryptoDestinationInvalid extends Schema.TaggedError<CryptoDestinationInvalid>()(
  "CryptoDestinationInvalid",
  { field: Schema.String, message: Schema.String }
) {}
