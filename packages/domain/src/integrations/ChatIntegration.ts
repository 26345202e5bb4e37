import { Schema } from "effect"
import { TeamId, UserId } from "../shared/model.ts"

/**
 * A team's installation of the chat app: the workspace it was installed in, the channel approval requests are posted
 * to, and the bot's token, sealed (`SealedSecrets`) so that only the service can use it again; the token never leaves
 * the service. A team has at most one.
 */
export class ChatIntegration extends Schema.Class<ChatIntegration>("ChatIntegration")({
  id: Schema.String,
  teamId: TeamId,
  workspaceId: Schema.String,
  workspaceName: Schema.String,
  channelId: Schema.String,
  channelName: Schema.String,
  botUserId: Schema.String,
  /** The bot token as sealed text, never the token itself. */
  botToken: Schema.String,
  scopes: Schema.Array(Schema.String),
  installedBy: UserId,
  installedAt: Schema.String
}) {}
