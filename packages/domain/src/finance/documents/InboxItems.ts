import { Context, type Effect } from "effect"
import type { PersistenceUnavailable, TeamId } from "../../shared/index.ts"

/** An attachment of a received e-mail (metadata; the content's size in bytes). */
export interface InboxAttachment {
  readonly filename: string
  readonly contentType: string
  readonly size: number
}

/** An e-mail received on a team's inbox address. */
export interface InboxItem {
  readonly id: string
  readonly teamId: TeamId
  readonly messageId: string
  readonly sender: string
  readonly recipient: string
  readonly subject: string
  readonly textBody: string
  readonly htmlBody: string
  readonly attachments: ReadonlyArray<InboxAttachment>
  readonly createdAt: string
}

/** Storage of inbox items, one per (team, message id). */
export class InboxItemsRepo extends Context.Service<
  InboxItemsRepo,
  {
    /** Inserts the item unless the team already has that message; true when inserted. */
    readonly insert: (item: InboxItem) => Effect.Effect<boolean, PersistenceUnavailable>
    /** The team's items, newest first. */
    readonly list: (teamId: TeamId) => Effect.Effect<ReadonlyArray<InboxItem>, PersistenceUnavailable>
  }
>()("@svc/domain/InboxItemsRepo") {}
