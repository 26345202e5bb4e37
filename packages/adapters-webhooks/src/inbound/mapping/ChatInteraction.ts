import type { ChatButtonPress } from "@svc/domain"
import { Result, Schema } from "effect"
import { WebhookPayloadError } from "../verify/WebhookSignatureError.ts"
import { decodePart, Ignored, type ProviderEvent, Required } from "./EventMapping.ts"

const invalid = (message: string) => Result.fail(new WebhookPayloadError({ reason: "invalid_payload", message }))

/** A chat interaction as the platform posts it: its kind and `trigger_id` (one per user action, the dedup key). */
export interface ChatInteractionEnvelope {
  readonly providerEventId: string
  readonly type: string
  readonly payload: Readonly<Record<string, unknown>>
}

/**
 * Parses the platform's `application/x-www-form-urlencoded` body: one field `payload` holding the interaction as JSON,
 * an object with string `type` and `trigger_id`.
 */
export const parseChatInteraction = (body: Uint8Array): Result.Result<ChatInteractionEnvelope, WebhookPayloadError> => {
  let payload: unknown
  try {
    const field = new URLSearchParams(new TextDecoder("utf-8", { fatal: true }).decode(body)).get("payload")
    if (field === null) return invalid("missing form field payload")
    payload = JSON.parse(field)
  } catch {
    return invalid("the payload field is not JSON")
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    return invalid("the payload field is not a JSON object")
  }
  const object = payload as Record<string, unknown>
  if (typeof object.type !== "string" || object.type.length === 0) return invalid("missing string field type")
  if (typeof object.trigger_id !== "string" || object.trigger_id.length === 0) {
    return invalid("missing string field trigger_id")
  }
  return Result.succeed({ providerEventId: object.trigger_id, type: object.type, payload: object })
}

/** The parts of a `block_actions` interaction a button press is read from. */
const BlockActions = Schema.Struct({
  user: Schema.Struct({ id: Required(255) }),
  team: Schema.Struct({ id: Required(255) }),
  response_url: Required(2048).check(Schema.isPattern(/^https?:\/\//u, { message: "expected an http(s) URL" })),
  actions: Schema.Array(Schema.Struct({ action_id: Required(255), value: Schema.optionalKey(Schema.String) }))
})

/** The button press a stored interaction reports; Ignored for other interactions and presses of no button. */
export const chatButtonPressOf = (
  event: ProviderEvent
): Result.Result<ChatButtonPress | typeof Ignored, WebhookPayloadError> => {
  if (event.type !== "block_actions") return Result.succeed(Ignored)
  return Result.map(decodePart(BlockActions, "chat interaction")(event.payload), (interaction) => {
    const action = interaction.actions[0]
    return action === undefined
      ? Ignored
      : {
          workspaceId: interaction.team.id,
          chatUserId: interaction.user.id,
          actionId: action.action_id,
          value: action.value ?? "",
          responseUrl: interaction.response_url
        }
  })
}
