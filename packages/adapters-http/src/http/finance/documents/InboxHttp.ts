import { Inbox, inboxItemView, toPage } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { badRequest, notFound } from "../../../api/shared/index.ts"
import {
  listPaging,
  noFileAvailable,
  orFileStoreUnavailable,
  orServiceUnavailable,
  presignedUrls,
  principalTeam
} from "../../shared/index.ts"

export const InboxHttp = HttpApiBuilder.group(Api, "inbox", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const { presignedUrl } = yield* presignedUrls
    const inbox = yield* Inbox
    const missing = (id: string) => () => Effect.fail(notFound(`no inbox item ${id}`))
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const status = query.status ?? null
          const scope = `inbox:${teamId}:${status ?? ""}`
          const page = yield* pageOf(scope, query)
          return yield* signedPage(scope, toPage(page, yield* inbox.list(teamId, status, page), inboxItemView))
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const item = yield* inbox.get(teamId, params.id)
          return { ...inboxItemView(item), suggestions: yield* inbox.suggestions(item) }
        }).pipe(Effect.catchTag("InboxItemNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("presignedUrl", ({ params, query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const item = yield* inbox.get(teamId, params.id)
          const stored = item.attachments.find((a) => a.path !== null)
          if (stored?.path == null) return yield* noFileAvailable("inbox item")
          return yield* presignedUrl(teamId, stored.path, stored.filename, query)
        }).pipe(Effect.catchTag("InboxItemNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("update", ({ params, payload }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return inboxItemView(yield* inbox.update(teamId, params.id, payload))
        }).pipe(
          Effect.catchTags({
            InboxItemNotFound: missing(params.id),
            InboxTransactionNotFound: (e) =>
              Effect.fail(
                badRequest("validation_failed", `transactionId: the team has no transaction ${e.transactionId}`, [
                  { path: "transactionId", message: "the team has no such transaction" }
                ])
              )
          }),
          orServiceUnavailable
        )
      )
      .handle("delete", ({ params }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const removed = yield* inbox.remove(teamId, params.id)
          return { id: removed.id, object: "inbox_item" as const, deleted: true as const }
        }).pipe(Effect.catchTag("InboxItemNotFound", missing(params.id)), orServiceUnavailable, orFileStoreUnavailable)
      )
  })
)
