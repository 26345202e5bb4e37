import { Context, type Effect, type Option, Schema } from "effect"
import type { PersistenceUnavailable } from "../shared/model.ts"
import { TeamId, UserId } from "../shared/model.ts"

/** A person of a chat workspace known as a member of the team that installed it, linked by their verified e-mail. */
export const ChatUserLink = Schema.Struct({
  workspaceId: Schema.String,
  chatUserId: Schema.String,
  teamId: TeamId,
  userId: UserId,
  email: Schema.String,
  linkedAt: Schema.String
})
export type ChatUserLink = typeof ChatUserLink.Type

/** Storage of chat user links: at most one per (workspace, chat user, team); a link never changes. */
export class ChatUserLinksRepo extends Context.Service<
  ChatUserLinksRepo,
  {
    readonly find: (
      workspaceId: string,
      chatUserId: string,
      teamId: TeamId
    ) => Effect.Effect<Option.Option<ChatUserLink>, PersistenceUnavailable>
    /** Stores the link unless one exists; answers the stored one either way. */
    readonly save: (link: ChatUserLink) => Effect.Effect<ChatUserLink, PersistenceUnavailable>
  }
>()("@svc/domain/ChatUserLinksRepo") {}
