import { ChatUserLink, ChatUserLinksRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable } from "../shared/index.ts"

/** ChatUserLinksRepo on Postgres: the first link of a (workspace, chat user, team) stays; a later save answers it. */
export const ChatUserLinksRepoPg = Layer.effect(
  ChatUserLinksRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const find = (workspaceId: string, chatUserId: string, teamId: string) =>
      sql`
        SELECT workspace_id, chat_user_id, team_id, user_id, email, linked_at FROM chat_user_links
        WHERE workspace_id = ${workspaceId} AND chat_user_id = ${chatUserId} AND team_id = ${teamId}`.pipe(
        orUnavailable("chatUserLinks.find"),
        Effect.flatMap(decodeFirst(ChatUserLink, "chatUserLinks.find"))
      )
    return ChatUserLinksRepo.of({
      find,
      save: (link) =>
        sql`
          INSERT INTO chat_user_links (workspace_id, chat_user_id, team_id, user_id, email, linked_at)
          VALUES (${link.workspaceId}, ${link.chatUserId}, ${link.teamId}, ${link.userId}, ${link.email},
            ${link.linkedAt})
          ON CONFLICT DO NOTHING`.pipe(
          orUnavailable("chatUserLinks.save"),
          Effect.andThen(find(link.workspaceId, link.chatUserId, link.teamId)),
          Effect.map(Option.getOrElse(() => link))
        )
    })
  })
)
