import { Context, type Effect, type Option } from "effect"
import type { Mode, PageRequest, PersistenceUnavailable, TeamId } from "../shared/model.ts"
import type { CryptoDestination, CryptoDestinationId } from "./Destination.ts"
import type { CryptoQuote, CryptoQuoteId } from "./Quote.ts"

/** Storage of the allow-list: a destination is inserted, read and removed, never edited. */
export class CryptoDestinationsRepo extends Context.Service<
  CryptoDestinationsRepo,
  {
    readonly insert: (destination: CryptoDestination) => Effect.Effect<void, PersistenceUnavailable>
    /** The destination, removed or not. */
    readonly find: (id: CryptoDestinationId) => Effect.Effect<Option.Option<CryptoDestination>, PersistenceUnavailable>
    /** The team's destinations of `mode` not removed, newest first, by cursor. */
    readonly list: (
      teamId: TeamId,
      mode: Mode,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<CryptoDestination>, PersistenceUnavailable>
    /** Marks the destination removed at `removedAt`; none when it is unknown or removed already. */
    readonly remove: (
      id: CryptoDestinationId,
      removedAt: string
    ) => Effect.Effect<Option.Option<CryptoDestination>, PersistenceUnavailable>
  }
>()("@svc/domain/CryptoDestinationsRepo") {}

/** Storage of quotes: a quote never changes but for its single use. */
export class CryptoQuotesRepo extends Context.Service<
  CryptoQuotesRepo,
  {
    readonly insert: (quote: CryptoQuote) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (id: CryptoQuoteId) => Effect.Effect<Option.Option<CryptoQuote>, PersistenceUnavailable>
    /**
     * Reads the quote and locks it until the surrounding transaction ends, so that of concurrent payouts of one quote
     * each sees the use the previous one made.
     */
    readonly lock: (id: CryptoQuoteId) => Effect.Effect<Option.Option<CryptoQuote>, PersistenceUnavailable>
    /** Records the quote's single use by `payoutId` if it has none yet; none when it is unknown or used already. */
    readonly markUsed: (
      id: CryptoQuoteId,
      payoutId: string,
      usedAt: string
    ) => Effect.Effect<Option.Option<CryptoQuote>, PersistenceUnavailable>
  }
>()("@svc/domain/CryptoQuotesRepo") {}
