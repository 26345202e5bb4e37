import {
  CursorKey,
  type TransactionAttachment,
  TransactionAttachmentNotFound,
  type TransactionFrequency,
  type TransactionId,
  type TransactionInvalid,
  type TransactionNotFound,
  type TransactionQuery,
  type TransactionReferenceNotFound,
  type TransactionStatus,
  Transactions,
  transactionView
} from "@svc/domain"
import { Effect, type Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import type { TransactionListQuery } from "../../../api/finance/transactions/index.ts"
import { badRequest } from "../../../api/shared/index.ts"
import {
  invalidField,
  missingResource,
  orServiceUnavailable,
  presignedUrls,
  principalTeamId,
  requestedLimit
} from "../../shared/index.ts"

type ListParams = Schema.Struct<typeof TransactionListQuery>["Type"]

/** 400 `invalid_cursor`, as every list answers a cursor it did not issue for this list, team and order. */
const invalidCursor = () =>
  badRequest("invalid_cursor", "the cursor is not valid", [
    { path: "query.cursor", message: "not a cursor of this list and order" }
  ])

type Refusal = TransactionInvalid | TransactionReferenceNotFound | TransactionNotFound | TransactionAttachmentNotFound

const REFUSALS = new Set([
  "TransactionInvalid",
  "TransactionReferenceNotFound",
  "TransactionNotFound",
  "TransactionAttachmentNotFound"
])

const isRefusal = (u: unknown): u is Refusal =>
  typeof u === "object" && u !== null && REFUSALS.has((u as { readonly _tag?: string })._tag ?? "")

const answerOf = (e: Refusal, prefix: string) => {
  switch (e._tag) {
    case "TransactionInvalid":
      return e.field === "cursor" ? invalidCursor() : invalidField(`${prefix}${e.field}`, e.message)
    case "TransactionReferenceNotFound":
      return missingResource(e.kind, e.id, `${prefix}${e.field}`)
    case "TransactionNotFound":
      return missingResource("transaction", e.transactionId, e.field === null ? null : `${prefix}${e.field}`)
    case "TransactionAttachmentNotFound":
      return missingResource("attachment", e.attachmentId, null)
  }
}

/** The service's refusals as 400 naming the field (prefixed: `query.` for the list) or 404. */
const refused =
  (prefix: string) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.mapError(self, (e: unknown) => (isRefusal(e) ? answerOf(e, prefix) : e)) as Effect.Effect<
      A,
      Exclude<E, Refusal> | ReturnType<typeof answerOf>,
      R
    >
const bodyRefusals = refused("")

/** The values of a list filter, comma-separated in one parameter or spread over repeated ones. */
const listOf = (param: string | ReadonlyArray<string> | undefined) =>
  param === undefined
    ? undefined
    : (typeof param === "string" ? [param] : param)
        .flatMap((text) => text.split(","))
        .map((part) => part.trim())
        .filter((part) => part !== "")

const flag = (text: "true" | "false" | undefined) => (text === undefined ? undefined : text === "true")

const STATUSES = new Set(["pending", "posted", "completed", "archived", "excluded", "exported"])
const FREQUENCIES = new Set(["weekly", "monthly", "annually", "irregular"])

const attachmentView = (a: TransactionAttachment) => ({
  id: a.id,
  path: a.path,
  size: a.size,
  type: a.type,
  filename: a.filename
})

export const TransactionsHttp = HttpApiBuilder.group(Api, "transactions", (handlers) =>
  Effect.gen(function* () {
    const transactions = yield* Transactions
    const cursors = yield* CursorKey
    const { presignedUrl } = yield* presignedUrls

    const queryOf = (query: ListParams, cursor: string | undefined) =>
      Effect.gen(function* () {
        const statuses = listOf(query.statuses)
        const badStatus = statuses?.findIndex((s) => !STATUSES.has(s)) ?? -1
        if (badStatus >= 0) {
          return yield* invalidField(`query.statuses.${badStatus}`, `expected one of ${[...STATUSES].join(", ")}`)
        }
        const frequencies = listOf(query.frequencies)
        const badFrequency = frequencies?.findIndex((f) => !FREQUENCIES.has(f)) ?? -1
        if (badFrequency >= 0) {
          return yield* invalidField(
            `query.frequencies.${badFrequency}`,
            `expected one of ${[...FREQUENCIES].join(", ")}`
          )
        }
        return {
          from: query.from ?? query.start,
          to: query.to ?? query.end,
          q: query.q,
          categories: listOf(query.categories),
          tags: listOf(query.tags),
          bankAccounts: listOf(query.bankAccounts ?? query.accounts),
          type: query.type,
          statuses: statuses as ReadonlyArray<TransactionStatus> | undefined,
          amountMin: query.amountMin,
          amountMax: query.amountMax,
          currency: query.currency,
          attachments: flag(query.attachments),
          recurring: flag(query.recurring),
          frequencies: frequencies as ReadonlyArray<TransactionFrequency> | undefined,
          sortBy: typeof query.sort === "string" ? query.sort : query.sort?.[0],
          direction: typeof query.sort === "string" ? query.direction : (query.sort?.[1] ?? query.direction),
          cursor,
          limit: requestedLimit(query)
        } satisfies TransactionQuery
      })

    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          const scope = `transactions:${teamId}`
          const cursor =
            query.cursor === undefined || query.cursor === ""
              ? undefined
              : yield* cursors.open(scope, query.cursor).pipe(Effect.mapError(invalidCursor))
          const page = yield* transactions.list(teamId, yield* queryOf(query, cursor))
          return {
            data: page.data.map(transactionView),
            meta: {
              cursor: page.cursor === null ? null : yield* cursors.seal(scope, page.cursor),
              hasNextPage: page.hasNextPage,
              hasPreviousPage: page.hasPreviousPage
            }
          }
        }).pipe(refused("query."), orServiceUnavailable)
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return transactionView(yield* transactions.create(teamId, payload))
        }).pipe(bodyRefusals, orServiceUnavailable)
      )
      .handle("createMany", ({ payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return { data: (yield* transactions.createMany(teamId, payload)).map(transactionView) }
        }).pipe(bodyRefusals, orServiceUnavailable)
      )
      .handle("updateMany", ({ payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return { data: (yield* transactions.updateMany(teamId, payload)).map(transactionView) }
        }).pipe(bodyRefusals, orServiceUnavailable)
      )
      .handle("deleteMany", ({ payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return { data: (yield* transactions.removeMany(teamId, payload)).map((id) => ({ id })) }
        }).pipe(bodyRefusals, orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return transactionView(yield* transactions.get(teamId, params.id as TransactionId))
        }).pipe(bodyRefusals, orServiceUnavailable)
      )
      .handle("update", ({ params, payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return transactionView(yield* transactions.update(teamId, params.id as TransactionId, payload))
        }).pipe(bodyRefusals, orServiceUnavailable)
      )
      .handle("delete", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return transactionView(yield* transactions.remove(teamId, params.id as TransactionId))
        }).pipe(bodyRefusals, orServiceUnavailable)
      )
      .handle("attach", ({ params, payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return attachmentView(yield* transactions.addAttachment(teamId, params.id as TransactionId, payload))
        }).pipe(bodyRefusals, orServiceUnavailable)
      )
      .handle("attachmentPresignedUrl", ({ params, query }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          const transaction = yield* transactions.get(teamId, params.id as TransactionId)
          const attachment = transaction.attachments.find((a) => a.id === params.attachmentId)
          if (attachment === undefined) {
            return yield* new TransactionAttachmentNotFound({
              transactionId: params.id,
              attachmentId: params.attachmentId
            })
          }
          return yield* presignedUrl(
            teamId,
            attachment.path.join("/"),
            attachment.filename ?? attachment.path.at(-1) ?? null,
            query
          )
        }).pipe(bodyRefusals, orServiceUnavailable)
      )
      .handle("detach", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return attachmentView(
            yield* transactions.removeAttachment(teamId, params.id as TransactionId, params.attachmentId)
          )
        }).pipe(bodyRefusals, orServiceUnavailable)
      )
  })
)
