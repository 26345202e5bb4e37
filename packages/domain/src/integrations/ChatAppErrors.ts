import { Schema } from "effect"

/** The chat app has no client id and secret configured: nothing of it can be used. */
export class ChatAppNotConfigured extends Schema.TaggedError<ChatAppNotConfigured>()("ChatAppNotConfigured", {}) {}

/** Only the team's owners and admins install or remove the chat app. */
export class ChatAppForbidden extends Schema.TaggedError<ChatAppForbidden>()("ChatAppForbidden", {
  action: Schema.String
}) {}

/** The team has no chat integration. */
export class ChatIntegrationNotFound extends Schema.TaggedError<ChatIntegrationNotFound>()("ChatIntegrationNotFound", {
  teamId: Schema.String
}) {}
