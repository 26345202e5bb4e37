import { Context, type Effect, type Option } from "effect"
import type { PageRequest, PersistenceUnavailable, TeamId } from "../../shared/model.ts"
import type { InboxItem, InboxStatus } from "./InboxItems.ts"

/** Storage of inbox items, one per (team, message id). */
export class InboxItemsRepo extends Context.Service<
  InboxItemsRepo,
  {
    /** Inserts the item unless the team already has that message; true when inserted. */
    readonly insert: (item: InboxItem) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly find: (teamId: TeamId, id: string) => Effect.Effect<Option.Option<InboxItem>, PersistenceUnavailable>
    /** The team's items newest first (of `status` when given), up to `page.limit + 1`. */
    readonly list: (
      teamId: TeamId,
      status: InboxStatus | null,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<InboxItem>, PersistenceUnavailable>
    /** Stores the item's status and match; false when the team has no item with its id. */
    readonly update: (item: InboxItem) => Effect.Effect<boolean, PersistenceUnavailable>
    /** Deletes an item; false when the team has none with that id. */
    readonly delete: (teamId: TeamId, id: string) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/InboxItemsRepo") {}
