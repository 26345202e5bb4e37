import {
  CryptoAsset,
  CryptoNetwork,
  PayoutRail,
  type PreparedTransfer,
  RailRejected,
  type RailStatus,
  type RailTransfer,
  sha256,
  toHex,
  utf8
} from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref, Schema } from "effect"

/** What a simulated transfer moves, as its payload carries it. */
export interface SimulatedTransfer {
  readonly network: CryptoNetwork
  readonly asset: CryptoAsset
  readonly address: string
  readonly baseUnits: bigint
}

/** How the simulated rail behaves; by default it signs everything and confirms at the first poll after a broadcast. */
export interface SimulatedRailOptions {
  /** How many status polls a broadcast transfer answers `pending` before it is `confirmed`. */
  readonly confirmAfterPolls?: number
  /** Why the rail refuses to sign a transfer (at `prepare`), or undefined to sign it. */
  readonly rejection?: (transfer: SimulatedTransfer) => string | undefined
  /** Why a broadcast transfer fails on chain (reported by `status`), or undefined for it to confirm. */
  readonly failure?: (transfer: SimulatedTransfer) => string | undefined
}

const Payload = Schema.fromJsonString(
  Schema.Struct({
    network: CryptoNetwork,
    asset: CryptoAsset,
    address: Schema.String,
    baseUnits: Schema.String,
    txHash: Schema.String
  })
)

/**
 * A payout rail that moves nothing, the default rail and the test double: deterministic, a transfer's hash is `0x` and
 * the SHA-256 hex of its payout id and its payload the JSON of what it moves; a transfer is `unknown` until broadcast,
 * then `pending` for `confirmAfterPolls` polls, then `confirmed` (or `failed`, as `failure` says). Broadcasting the same
 * payload again changes nothing, so a transfer is never sent twice. What was broadcast lives as long as the rail.
 */
export const makeSimulatedRail = (options: SimulatedRailOptions = {}) =>
  Effect.gen(function* () {
    const polls = yield* Ref.make(HashMap.empty<string, number>())
    const decode = (network: CryptoNetwork, prepared: PreparedTransfer) =>
      Schema.decodeUnknownEffect(Payload)(prepared.payload).pipe(
        Effect.flatMap((p) =>
          p.txHash === prepared.txHash && p.network === network
            ? Effect.succeed({ ...p, baseUnits: BigInt(p.baseUnits) })
            : Effect.fail(new RailRejected({ network, message: "the payload is not this transfer's" }))
        ),
        Effect.catchTag("SchemaError", () =>
          Effect.fail(new RailRejected({ network, message: "the payload is not a simulated transfer" }))
        )
      )
    return PayoutRail.of({
      prepare: (transfer: RailTransfer) =>
        Effect.gen(function* () {
          const moved = {
            network: transfer.network,
            asset: transfer.asset,
            address: transfer.address,
            baseUnits: transfer.baseUnits
          }
          const refused = options.rejection?.(moved)
          if (refused !== undefined) return yield* new RailRejected({ network: transfer.network, message: refused })
          const txHash = `0x${toHex(yield* sha256(utf8(transfer.payoutId)))}`
          const payload = JSON.stringify({ ...moved, baseUnits: transfer.baseUnits.toString(), txHash })
          return { txHash, payload }
        }),
      broadcast: (network, prepared) =>
        Effect.flatMap(decode(network, prepared), () =>
          Ref.update(polls, (map) => (HashMap.has(map, prepared.txHash) ? map : HashMap.set(map, prepared.txHash, 0)))
        ),
      status: (network, prepared) =>
        Effect.gen(function* () {
          const seen = HashMap.get(yield* Ref.get(polls), prepared.txHash)
          if (Option.isNone(seen)) return { _tag: "unknown" } satisfies RailStatus
          const transfer = yield* decode(network, prepared).pipe(Effect.orDie)
          yield* Ref.update(polls, HashMap.set(prepared.txHash, seen.value + 1))
          if (seen.value < (options.confirmAfterPolls ?? 0)) return { _tag: "pending" } satisfies RailStatus
          const failure = options.failure?.(transfer)
          return failure === undefined
            ? ({ _tag: "confirmed" } satisfies RailStatus)
            : ({ _tag: "failed", reason: failure } satisfies RailStatus)
        })
    })
  })

/** The simulated rail with `options`, as the PayoutRail. */
export const simulatedPayoutRail = (options: SimulatedRailOptions = {}) =>
  Layer.effect(PayoutRail, makeSimulatedRail(options))

/** The default payout rail: simulated, confirming every transfer at the first poll after its broadcast. */
export const SimulatedPayoutRail = simulatedPayoutRail()
