import { Mailer, type MailMessage } from "@svc/domain"
import { Context, Effect, Layer, Ref } from "effect"

/** The messages the recording mailer was given, oldest first. */
export class SentMail extends Context.Service<SentMail, Ref.Ref<ReadonlyArray<MailMessage>>>()(
  "@svc/adapters-memory/SentMail"
) {}

/** A mailer that sends nothing and records every message (tests read them from `SentMail`). */
export const MailerMemory = Layer.effectContext(
  Effect.gen(function* () {
    const sent = yield* Ref.make<ReadonlyArray<MailMessage>>([])
    return Context.make(SentMail, sent).pipe(
      Context.add(Mailer, { send: (message) => Ref.update(sent, (all) => [...all, message]), localDelivery: null })
    )
  })
)
