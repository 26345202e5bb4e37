import { Context, type Effect } from "effect"
import type { LedgerTransaction } from "../ledger/model.ts"
import type { Mode, PersistenceUnavailable, TeamId } from "../shared/model.ts"
import type { ActivityKind } from "./ActivityItem.ts"

/** Which item a read is about. */
export interface ActivitySubject {
  readonly kind: ActivityKind
  readonly id: string
  readonly mode: Mode
}

/** What one key spent in one UTC day (minor units). */
export interface DailySpend {
  readonly spendingKeyId: string
  /** `YYYY-MM-DD`. */
  readonly date: string
  readonly amount: number
}

/** Reads across the spend, transfers, checkout and ledger stores that the activity views need. */
export class ActivityRepo extends Context.Service<
  ActivityRepo,
  {
    /**
     * The team's ledger transactions the item caused, oldest first: those with the item's code and reference (a spend
     * request's posting or hold, a transfer's hold; a checkout intent's authorizations' holds) and the resolutions of
     * those holds.
     */
    readonly ledgerTransactions: (
      teamId: TeamId,
      subject: ActivitySubject
    ) => Effect.Effect<ReadonlyArray<LedgerTransaction>, PersistenceUnavailable>
    /**
     * What each of the team's keys actually spent in `mode`, per UTC day of the item's creation, for items created in
     * [from, before): approved spend requests' amounts, completed outgoing transfers' amounts and completed checkout
     * intents' captured amounts. Days without spend are absent.
     */
    readonly dailySpend: (
      teamId: TeamId,
      mode: Mode,
      from: string,
      before: string
    ) => Effect.Effect<ReadonlyArray<DailySpend>, PersistenceUnavailable>
  }
>()("@svc/domain/ActivityRepo") {}
