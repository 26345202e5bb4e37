import { PaymentCodes, paymentCodeView, ReceiveAddresses, receiveAddressView } from "@svc/domain"
import { Clock, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CurrentAgent, notFound } from "../../api/shared/index.ts"
import { orServiceUnavailable } from "../shared/index.ts"

export const TransfersHttp = HttpApiBuilder.group(Api, "transfers", (handlers) =>
  Effect.gen(function* () {
    const addresses = yield* ReceiveAddresses
    const codes = yield* PaymentCodes
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
  })
)
