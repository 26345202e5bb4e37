import { ChatApprovalButtons, InboundCommands, type InboundEvent, InboundProcessingFailed } from "@svc/domain"
import { Context, Effect, Layer, Option, Result } from "effect"
import { chatButtonPressOf } from "./mapping/ChatInteraction.ts"
import { commandOf } from "./mapping/index.ts"
import { ChatInteractions } from "./verify/Endpoints.ts"

/**
 * Applies a stored provider event through its command, and a chat interaction through the chat buttons (when the app
 * runs them); idempotent, so a retry after a crash is harmless.
 */
export class InboundProcessor extends Context.Service<
  InboundProcessor,
  {
    /** Fails retryable when a later attempt may succeed, and not retryable for malformed payloads and refusals that stay. */
    readonly process: (event: InboundEvent) => Effect.Effect<void, InboundProcessingFailed>
  }
>()("@svc/adapters-webhooks/InboundProcessor") {
  static readonly make = Effect.gen(function* () {
    const commands = yield* InboundCommands
    const buttons = yield* Effect.serviceOption(ChatApprovalButtons)

    const chatInteraction = (event: InboundEvent) =>
      Effect.gen(function* () {
        if (Option.isNone(buttons)) {
          return yield* new InboundProcessingFailed({
            message: "chat interactions are not handled here",
            retryable: false
          })
        }
        const press = chatButtonPressOf(event)
        if (Result.isFailure(press)) {
          return yield* new InboundProcessingFailed({ message: press.failure.message, retryable: false })
        }
        if ("_tag" in press.success) return
        yield* buttons.value.press(press.success)
      })

    const process = (event: InboundEvent) =>
      Effect.gen(function* () {
        if (event.endpoint === ChatInteractions.name) return yield* chatInteraction(event)
        const mapped = commandOf(event)
        if (Result.isFailure(mapped)) {
          return yield* new InboundProcessingFailed({ message: mapped.failure.message, retryable: false })
        }
        if (mapped.success._tag === "Ignored") return
        yield* commands.handle(mapped.success)
      }).pipe(
        Effect.catchTags({
          InboundCommandRefused: (refused) =>
            Effect.fail(new InboundProcessingFailed({ message: refused.message, retryable: refused.retryable })),
          PersistenceUnavailable: () =>
            Effect.fail(new InboundProcessingFailed({ message: "the database is unavailable", retryable: true })),
          FileStoreUnavailable: () =>
            Effect.fail(new InboundProcessingFailed({ message: "the file store is unavailable", retryable: true }))
        }),
        Effect.withSpan("InboundProcessor.process", { attributes: { endpoint: event.endpoint, type: event.type } })
      )

    return InboundProcessor.of({ process })
  })
  static readonly layer = Layer.effect(InboundProcessor, InboundProcessor.make)
}
