import { ChatIntegration, ChatIntegrationsRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable } from "../shared/index.ts"

const COLUMNS =
  "id, team_id, workspace_id, workspace_name, channel_id, channel_name, bot_user_id, bot_token, scopes, installed_by, installed_at"

/**
 * ChatIntegrationsRepo on Postgres: the team's row is replaced in one statement (`team_id` is unique); a workspace
 * installed by several teams answers the latest installation.
 */
export const ChatIntegrationsRepoPg = Layer.effect(
  ChatIntegrationsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return ChatIntegrationsRepo.of({
      forTeam: (teamId) =>
        sql`SELECT ${columns} FROM chat_integrations WHERE team_id = ${teamId}`.pipe(
          orUnavailable("chatIntegrations.forTeam"),
          Effect.flatMap(decodeFirst(ChatIntegration, "chatIntegrations.forTeam"))
        ),
      forWorkspace: (workspaceId) =>
        sql`SELECT ${columns} FROM chat_integrations WHERE workspace_id = ${workspaceId}
            ORDER BY installed_at DESC, id DESC LIMIT 1`.pipe(
          orUnavailable("chatIntegrations.forWorkspace"),
          Effect.flatMap(decodeFirst(ChatIntegration, "chatIntegrations.forWorkspace"))
        ),
      save: (i) =>
        sql`INSERT INTO chat_integrations (${columns})
            VALUES (${i.id}, ${i.teamId}, ${i.workspaceId}, ${i.workspaceName}, ${i.channelId}, ${i.channelName},
              ${i.botUserId}, ${i.botToken}, ${JSON.stringify(i.scopes)}::jsonb, ${i.installedBy}, ${i.installedAt})
            ON CONFLICT (team_id) DO UPDATE SET id = EXCLUDED.id, workspace_id = EXCLUDED.workspace_id,
              workspace_name = EXCLUDED.workspace_name, channel_id = EXCLUDED.channel_id,
              channel_name = EXCLUDED.channel_name, bot_user_id = EXCLUDED.bot_user_id, bot_token = EXCLUDED.bot_token,
              scopes = EXCLUDED.scopes, installed_by = EXCLUDED.installed_by, installed_at = EXCLUDED.installed_at`.pipe(
          Effect.asVoid,
          orUnavailable("chatIntegrations.save")
        ),
      remove: (teamId) =>
        sql`DELETE FROM chat_integrations WHERE team_id = ${teamId} RETURNING ${columns}`.pipe(
          orUnavailable("chatIntegrations.remove"),
          Effect.flatMap(decodeFirst(ChatIntegration, "chatIntegrations.remove"))
        )
    })
  })
)
