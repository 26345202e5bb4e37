import { Context, type Effect, Schema } from "effect"
import type { CryptoAsset, CryptoNetwork } from "./Network.ts"

/** What a rail is asked to send: `baseUnits` of `asset` (in the asset's smallest unit) to `address` on `network`. */
export interface RailTransfer {
  /** The payout's id: a rail may use it to make its work deterministic (the simulated rail's hash). */
  readonly payoutId: string
  readonly mode: "live" | "test"
  readonly network: CryptoNetwork
  readonly asset: CryptoAsset
  readonly address: string
  readonly baseUnits: bigint
}

/**
 * A transfer signed and ready to broadcast: its transaction hash is known before it is sent, and `payload` (opaque
 * to the domain, e.g. the raw signed transaction) broadcasts exactly that transaction again after a crash. Stored
 * with the payout before the first broadcast; never shown to clients.
 */
export interface PreparedTransfer {
  readonly txHash: string
  readonly payload: string
}

/**
 * Where a broadcast transaction is: `unknown` (the network has not seen it: broadcast the same payload again),
 * `pending` (seen, not yet final), `confirmed` (mined with the configured confirmations and succeeded), `failed`
 * (reverted, or dropped for good: its nonce was taken by another transaction).
 */
export type RailStatus =
  | { readonly _tag: "unknown" }
  | { readonly _tag: "pending" }
  | { readonly _tag: "confirmed" }
  | { readonly _tag: "failed"; readonly reason: string }

/** The rail could not be reached or did not answer; the worker tries again later. */
export class RailUnavailable extends Schema.TaggedError<RailUnavailable>()("RailUnavailable", {
  network: Schema.String,
  message: Schema.String
}) {}

/** The rail refused the transfer for good before it was sent (no such network configured, a malformed address). */
export class RailRejected extends Schema.TaggedError<RailRejected>()("RailRejected", {
  network: Schema.String,
  message: Schema.String
}) {}

/**
 * Where payouts leave: a rail signs a transfer (without sending it), broadcasts a signed transfer (again, after a
 * crash: the same payload is the same transaction, so it can never be sent twice), and says where one is.
 * The simulated rail is the default; an EVM rail signs ERC-20 `transfer`s from a hot wallet.
 */
export class PayoutRail extends Context.Service<
  PayoutRail,
  {
    readonly prepare: (transfer: RailTransfer) => Effect.Effect<PreparedTransfer, RailUnavailable | RailRejected>
    readonly broadcast: (
      network: CryptoNetwork,
      prepared: PreparedTransfer
    ) => Effect.Effect<void, RailUnavailable | RailRejected>
    readonly status: (network: CryptoNetwork, prepared: PreparedTransfer) => Effect.Effect<RailStatus, RailUnavailable>
  }
>()("@svc/domain/PayoutRail") {}
