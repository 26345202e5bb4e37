import { Context, type Effect, type Option } from "effect"
import type { PersistenceUnavailable, TeamId } from "../shared/index.ts"
import type { PaymentCode } from "./PaymentCode.ts"
import type { ReceiveHandle } from "./ReceiveAddress.ts"

/** Storage of teams' receive handles: one per team, unique across teams, never changed. */
export class ReceiveHandlesRepo extends Context.Service<
  ReceiveHandlesRepo,
  {
    /** Stores the team's handle; false, storing nothing, when the handle is taken or the team has one already. */
    readonly insert: (handle: ReceiveHandle) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly findByTeam: (teamId: TeamId) => Effect.Effect<Option.Option<ReceiveHandle>, PersistenceUnavailable>
    readonly findByHandle: (handle: string) => Effect.Effect<Option.Option<ReceiveHandle>, PersistenceUnavailable>
  }
>()("@svc/domain/ReceiveHandlesRepo") {}

/** How a payment code was used: by which transfer, when. */
export interface PaymentCodeUse {
  readonly transferId: string
  readonly usedAt: string
}

/** Storage of payment codes: a code is used at most once, and a used code never changes. */
export class PaymentCodesRepo extends Context.Service<
  PaymentCodesRepo,
  {
    /** Stores a new code; false, storing nothing, when the code's text is taken. */
    readonly insert: (code: PaymentCode) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly find: (code: string) => Effect.Effect<Option.Option<PaymentCode>, PersistenceUnavailable>
    /**
     * Reads the code and locks it until the surrounding transaction ends (`Transactor.withTransaction`), so that of
     * concurrent transfers against one code each sees the use the previous one made.
     */
    readonly findForUse: (code: string) => Effect.Effect<Option.Option<PaymentCode>, PersistenceUnavailable>
    /** Records the code's single use if it has none yet; none when it is unknown or was used already. */
    readonly markUsed: (
      code: string,
      use: PaymentCodeUse
    ) => Effect.Effect<Option.Option<PaymentCode>, PersistenceUnavailable>
  }
>()("@svc/domain/PaymentCodesRepo") {}
