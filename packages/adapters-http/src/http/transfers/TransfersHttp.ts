import {
  directionOf,
  PaymentCodes,
  type PaymentCodeUnusable,
  paymentCodeView,
  ReceiveAddresses,
  receiveAddressView,
  type Transfer,
  type TransferInvalid,
  type TransferNotPending,
  Transfers,
  type TransferWrongParty,
  toPage,
  transferView
} from "@svc/domain"
import { Clock, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, CurrentAgent, conflict, forbidden, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable, settlementAccountMissing } from "../shared/index.ts"

/** The transfer as the team `teamId` (on one of its sides) sees it. */
const viewFor = (teamId: string) => (t: Transfer) => transferView(t, directionOf(t, teamId) ?? "outgoing")

/** The contract's answers to the transfer errors a client can cause. */
const transferInvalid = (e: TransferInvalid) =>
  Effect.fail(badRequest("validation_failed", e.message, [{ path: e.field, message: e.message }]))
const PAYMENT_CODE_UNUSABLE: Record<PaymentCodeUnusable["status"], (code: string) => string> = {
  used: (code) => `the payment code ${code} was used already`,
  reserved: (code) => `the payment code ${code} is held by another transfer until it is accepted or ends`,
  expired: (code) => `the payment code ${code} has expired`
}
const paymentCodeUnusable = (e: PaymentCodeUnusable) =>
  Effect.fail(conflict(`payment_code_${e.status}`, PAYMENT_CODE_UNUSABLE[e.status](e.code)))
const transferNotPending = (operation: string) => (e: TransferNotPending) =>
  Effect.fail(conflict("transfer_not_pending", `the transfer is ${e.status}; it can no longer be ${operation}`))
const wrongParty = (e: TransferWrongParty) => Effect.fail(forbidden("forbidden", e.message))

export const TransfersHttp = HttpApiBuilder.group(Api, "transfers", (handlers) =>
  Effect.gen(function* () {
    const addresses = yield* ReceiveAddresses
    const codes = yield* PaymentCodes
    const transfers = yield* Transfers
    const { pageOf, signedPage } = yield* listPaging
    const transferNotFound = (id: string) => () => Effect.fail(notFound(`no transfer ${id}`))
    const decide = (operation: "accept" | "decline" | "cancel", id: string) =>
      Effect.gen(function* () {
        const agent = yield* CurrentAgent
        return viewFor(agent.teamId)(yield* transfers[operation](agent, id))
      }).pipe(
        Effect.catchTags({
          TransferNotFound: transferNotFound(id),
          TransferWrongParty: wrongParty,
          TransferNotPending: transferNotPending(
            operation === "accept" ? "accepted" : operation === "decline" ? "declined" : "canceled"
          )
        }),
        // Only an acceptance uses a payment code (refused only for a transfer made before codes were held).
        Effect.catchTag("PaymentCodeUnusable", paymentCodeUnusable),
        orServiceUnavailable
      )
    const addressNotFound = (address: string) => () => Effect.fail(notFound(`no receive address ${address}`))
    return handlers
      .handle("receiveAddress", () =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return receiveAddressView(yield* addresses.own(agent.teamId, agent.mode))
        }).pipe(
          // Every team gets its handle in the transaction that creates it (migration 0015 backfilled the others).
          Effect.catchTag("ReceiveHandleMissing", Effect.die),
          orServiceUnavailable
        )
      )
      .handle("resolveAddress", ({ params }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return receiveAddressView(yield* addresses.resolve(agent.mode, params.address))
        }).pipe(Effect.catchTag("ReceiveAddressNotFound", addressNotFound(params.address)), orServiceUnavailable)
      )
      .handle("createPaymentCode", ({ payload }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const code = yield* codes.create(
            { teamId: agent.teamId, mode: agent.mode },
            { amount: payload.amount, memo: payload.memo, expiresInSeconds: payload.expiresInSeconds }
          )
          return paymentCodeView(code, yield* Clock.currentTimeMillis)
        }).pipe(
          // As for `receiveAddress`: the caller's team has its handle.
          Effect.catchTag("ReceiveHandleMissing", Effect.die),
          orServiceUnavailable
        )
      )
      .handle("getPaymentCode", ({ params }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const code = yield* codes.resolve(agent.mode, params.code)
          return paymentCodeView(code, yield* Clock.currentTimeMillis)
        }).pipe(
          Effect.catchTag("PaymentCodeNotFound", () => Effect.fail(notFound(`no payment code ${params.code}`))),
          orServiceUnavailable
        )
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return transferView(yield* transfers.create(agent, payload), "outgoing")
        }).pipe(
          Effect.catchTags({
            TransferInvalid: transferInvalid,
            ReceiveAddressNotFound: (e) => Effect.fail(notFound(`no receive address ${e.address}`)),
            PaymentCodeNotFound: (e) => Effect.fail(notFound(`no payment code ${e.code}`)),
            PaymentCodeUnusable: paymentCodeUnusable,
            SettlementAccountMissing: (e) => Effect.fail(settlementAccountMissing(e)),
            // Every team gets its handle in the transaction that creates it (migration 0015 backfilled the others).
            ReceiveHandleMissing: Effect.die
          }),
          orServiceUnavailable
        )
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const scope = `transfers:${agent.teamId}:${agent.mode}`
          const page = yield* pageOf(scope, query)
          const rows = yield* transfers.list(
            agent.teamId,
            { mode: agent.mode, status: query.status, direction: query.direction },
            page
          )
          return yield* signedPage(scope, toPage(page, rows, viewFor(agent.teamId)))
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return viewFor(agent.teamId)(yield* transfers.get(agent.teamId, agent.mode, params.id))
        }).pipe(Effect.catchTag("TransferNotFound", transferNotFound(params.id)), orServiceUnavailable)
      )
      .handle("accept", ({ params }) => decide("accept", params.id))
      .handle("decline", ({ params }) => decide("decline", params.id))
      .handle("cancel", ({ params }) => decide("cancel", params.id))
  })
)
