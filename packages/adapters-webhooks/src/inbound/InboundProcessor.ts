import { InboundCommands, type InboundEvent, InboundProcessingFailed } from "@svc/domain"
import { Context, Effect, Layer, Result } from "effect"
import { commandOf } from "./mapping/index.ts"

/** Applies a stored provider event through its command; idempotent, so a retry after a crash is harmless. */
export class InboundProcessor extends Context.Service<
  InboundProcessor,
  {
    /** Fails retryable when a later attempt may succeed, and not retryable for malformed payloads and refusals that stay. */
    readonly process: (event: InboundEvent) => Effect.Effect<void, InboundProcessingFailed>
  }
>()("@svc/adapters-webhooks/InboundProcessor") {
  static readonly make = Effect.gen(function* () {
    const commands = yield* InboundCommands

    const process = (event: InboundEvent) =>
      Effect.gen(function* () {
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
            Effect.fail(new InboundProcessingFailed({ message: "the database is unavailable", retryable: true }))
        }),
        Effect.withSpan("InboundProcessor.process", { attributes: { endpoint: event.endpoint, type: event.type } })
      )

    return InboundProcessor.of({ process })
  })
  static readonly layer = Layer.effect(InboundProcessor, InboundProcessor.make)
}
