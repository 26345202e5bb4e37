import { Context, type Effect, type Option, type Redacted } from "effect"
import type { GovernedQuery, GovernedRepo } from "../governance/model.ts"
import type { Mode, PersistenceUnavailable, TeamId } from "../shared/model.ts"
import { DEFAULT_X402_ASSETS, type X402Asset } from "./Network.ts"
import type {
  TransferAuthorization,
  X402Payment,
  X402PaymentId,
  X402PaymentStatus,
  X402PaymentTransition,
  X402Signed
} from "./Payment.ts"

/** A wallet key: the private key (never shown, never logged) and its address. */
export interface X402Key {
  readonly privateKey: Redacted.Redacted<string>
  readonly address: string
}

/** An EIP-3009 authorization to sign as EIP-712 typed data, with its token's domain. */
export interface AuthorizationToSign {
  readonly chainId: number
  /** The token contract: the domain's `verifyingContract`. */
  readonly asset: string
  readonly domainName: string
  readonly domainVersion: string
  readonly authorization: TransferAuthorization
}

/** Makes wallet keys and signs with them, locally: no chain is asked. */
export class X402Signer extends Context.Service<
  X402Signer,
  {
    /** A fresh secp256k1 key and its address. */
    readonly generateKey: Effect.Effect<X402Key>
    /** The EIP-712 signature (hex) of `transferWithAuthorization` by `privateKey`. */
    readonly signAuthorization: (
      privateKey: Redacted.Redacted<string>,
      toSign: AuthorizationToSign
    ) => Effect.Effect<string>
  }
>()("@svc/domain/X402Signer") {}

/** A team's wallet in one mode: its address, and its key sealed (`SealedSecrets`). */
export interface X402Wallet {
  readonly teamId: TeamId
  readonly mode: Mode
  readonly address: string
  readonly sealedKey: string
  readonly createdAt: string
}

/** Storage of the teams' wallets: one a team and mode, never replaced. */
export class X402WalletsRepo extends Context.Service<
  X402WalletsRepo,
  {
    readonly find: (teamId: TeamId, mode: Mode) => Effect.Effect<Option.Option<X402Wallet>, PersistenceUnavailable>
    /** Stores the wallet unless the team has one in that mode already; answers the one stored. */
    readonly insert: (wallet: X402Wallet) => Effect.Effect<X402Wallet, PersistenceUnavailable>
  }
>()("@svc/domain/X402WalletsRepo") {}

/** Which payments a team lists. */
export type X402PaymentQuery = Pick<
  GovernedQuery<X402PaymentStatus>,
  "mode" | "status" | "approvalStatus" | "withApproval" | "spendingKeyId"
>

/**
 * Storage of x402 payments, governed subjects (`GovernedRepo`); payments due to expire at `now` are those awaiting
 * approval whose approval expired (a signed one's expiry asks the chain first: `X402Payments.processDue`).
 */
export class X402PaymentsRepo extends Context.Service<
  X402PaymentsRepo,
  GovernedRepo<X402Payment, X402PaymentTransition, X402PaymentQuery> & {
    /** Stores the signed authorization of a `signed` payment not signed yet; none otherwise. */
    readonly sign: (
      id: X402PaymentId,
      signed: X402Signed
    ) => Effect.Effect<Option.Option<X402Payment>, PersistenceUnavailable>
    /** `signed` payments, the settlement watch's queue, soonest authorization deadline first. */
    readonly signed: (limit: number) => Effect.Effect<ReadonlyArray<X402Payment>, PersistenceUnavailable>
  }
>()("@svc/domain/X402PaymentsRepo") {}

/** What the chain says of an authorization: used (by the transaction, when known), unused, or unknown (not watched). */
export type AuthorizationState =
  | { readonly _tag: "used"; readonly txHash: string | null }
  | { readonly _tag: "unused" }
  | { readonly _tag: "unknown" }

/** Where settlements are seen: whether the token contract has used an authorization (EIP-3009 `authorizationState`). */
export class X402Settlements extends Context.Service<
  X402Settlements,
  {
    readonly state: (payment: {
      readonly chainId: number
      readonly asset: string
      readonly authorizer: string
      readonly nonce: string
    }) => Effect.Effect<AuthorizationState>
  }
>()("@svc/domain/X402Settlements") {}

/** The tokens the service pays in: Circle's USDC by default; where a local chain runs, its token added. */
export const X402Assets = Context.Reference<ReadonlyArray<X402Asset>>("@svc/domain/X402Assets", {
  defaultValue: () => DEFAULT_X402_ASSETS
})
