import type { InboundCommand, InboundEvent } from "@svc/domain"
import { Result, Schema } from "effect"
import { WebhookPayloadError } from "../verify/WebhookSignatureError.ts"

/** A stored provider event, as a mapping reads it. */
export type ProviderEvent = Pick<InboundEvent, "endpoint" | "providerEventId" | "type" | "payload">

/** The event reports nothing this service acts on; it is acknowledged and stored only. */
export const Ignored = { _tag: "Ignored" } as const
export type Ignored = typeof Ignored

/** A provider's pure reading of its events: the command each asks for, Ignored, or the reason its payload is unusable. */
export type EventMapping = (event: ProviderEvent) => Result.Result<InboundCommand | Ignored, WebhookPayloadError>

/** Decodes one part of a payload with `schema`; the failure names `what` and every invalid field. */
export const decodePart =
  <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, what: string) =>
  (value: unknown): Result.Result<S["Type"], WebhookPayloadError> =>
    Schema.decodeUnknownResult(schema)(value, { errors: "all" }).pipe(
      Result.mapError(
        (error) =>
          new WebhookPayloadError({
            reason: "invalid_payload",
            message: `invalid ${what}: ${error.message.replaceAll("\n", " ")}`
          })
      )
    )

/** A required string of at most `max` characters. */
export const Required = (max: number) => Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(max))
