import { Schema, Struct } from "effect"
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

/** A chat integration as its team sees it: everything but the bot token. */
export const ChatIntegrationView = Schema.Struct(Struct.omit(ChatIntegration.fields, ["botToken"]))
export type ChatIntegrationView = typeof ChatIntegrationView.Type

/** The view of an integration. */
export const chatIntegrationView = ({ botToken: _, ...view }: ChatIntegration): ChatIntegrationView => view

/** The outbox event of a chat integration lost because the platform no longer accepts its token. */
export const ChatIntegrationEventType = Schema.Literal("chat_integration.disconnected")
export type ChatIntegrationEventType = typeof ChatIntegrationEventType.Type

/** The data of `chat_integration.disconnected`: the integration removed, and the platform's reason. */
export const ChatIntegrationDisconnection = Schema.Struct({ ...ChatIntegrationView.fields, reason: Schema.String })
export type ChatIntegrationDisconnection = typeof ChatIntegrationDisconnection.Type
