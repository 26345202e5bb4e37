import { CryptoQuotes, cryptoQuoteView } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CurrentAgent, notFound } from "../../api/shared/index.ts"
import { invalidField, orServiceUnavailable } from "../shared/index.ts"

export const CryptoQuotesHttp = HttpApiBuilder.group(Api, "cryptoQuotes", (handlers) =>
  Effect.gen(function* () {
    const quotes = yield* CryptoQuotes
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          return cryptoQuoteView(yield* quotes.create(yield* CurrentAgent, payload))
        }).pipe(
          Effect.catchTags({
            CryptoQuoteInvalid: (e) => Effect.fail(invalidField(e.field, e.message)),
            CryptoDestinationNotFound: (e) =>
              Effect.fail(notFound(`destinationId: no crypto destination ${e.id} on the allow-list in this mode`))
          }),
          orServiceUnavailable
        )
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          return cryptoQuoteView(yield* quotes.get(yield* CurrentAgent, params.id))
        }).pipe(
          Effect.catchTag("CryptoQuoteNotFound", () => Effect.fail(notFound(`no crypto quote ${params.id}`))),
          orServiceUnavailable
        )
      )
  })
)
