import { CreateTransferBody, TransferResponse } from "@svc/adapters-http/api"
import { Schema } from "effect"
import { Tool } from "effect/ai"
import { ClientRequestId, callService, idempotencyHeaders, ServiceClient, ToolFailure } from "../shared/index.ts"

/** Sends a book transfer to another team. */
export const CreateTransfer = Tool.make("create_transfer", {
  description:
    "Send USD to another team of the same mode, at its receive address (`to: {address}`) or a payment code it gave " +
    "you (`to: {paymentCode}`). `amount` is an integer in cents; `currency` must be `USD`. The policy decides as for " +
    "a spend request: `pending_acceptance` (held until the recipient accepts), `pending_approval` (a person of your " +
    "team must approve; do not resend) or `denied`. Pass a `clientRequestId` and reuse it on retries so the money " +
    "is sent once. Needs spend.write.",
  parameters: Schema.Struct({ ...CreateTransferBody.fields, clientRequestId: ClientRequestId }),
  success: TransferResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotate(Tool.Destructive, false)

/** The transfer tool's handler. */
export const transferHandlers = {
  create_transfer: ({ clientRequestId, ...payload }: typeof CreateTransfer.parametersSchema.Type) =>
    callService((client) => client.transfers.create({ payload, ...idempotencyHeaders(clientRequestId) }))
}
