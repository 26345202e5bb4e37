import { CreateTransferBody, TransferResponse } from "@svc/adapters-http/api"
import { Schema } from "effect"
import { Tool } from "effect/ai"
import {
  ById,
  ClientRequestId,
  callService,
  idempotencyHeaders,
  readsOnly,
  ServiceClient,
  ToolFailure,
  toolHints
} from "../shared/index.ts"

/** Sends a book transfer to another team. */
export const CreateTransfer = Tool.make("create_transfer", {
  description:
    "Send USD to another team of the same mode, at its receive address (`to: {address}`) or a payment code it gave " +
    "you (`to: {paymentCode}`). `amount` is an integer in cents (1999 = $19.99); `currency` must be `USD`. The " +
    "policy decides as for a spend request: `pending_acceptance` (held until the recipient accepts; follow it with " +
    "get_transfer), `pending_approval` (a person of your team must approve; do not resend) or `denied`. Pass a " +
    "`clientRequestId` and reuse it on retries so the money is sent once. Needs spend.write.",
  parameters: Schema.Struct({
    ...CreateTransferBody.fields,
    currency: Schema.Literal("USD").annotate({ description: "`USD`: book transfers are in USD only." }),
    clientRequestId: ClientRequestId
  }),
  success: TransferResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(toolHints({ readOnly: false, destructive: true, idempotent: false, openWorld: false }))

/** Reads one transfer. */
export const GetTransfer = Tool.make("get_transfer", {
  description:
    "Read one transfer your team sent or received, by id: its status (`pending_approval`, `pending_acceptance`, " +
    "`completed`, `declined`, `canceled`, `expired`, `denied`), amount in cents, counterparty and `direction`. Use it " +
    "to follow a transfer until the recipient accepts or declines. Needs spend.read.",
  parameters: ById("transfer"),
  success: TransferResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(readsOnly)

/** The transfer tools' handlers. */
export const transferHandlers = {
  create_transfer: ({ clientRequestId, ...payload }: typeof CreateTransfer.parametersSchema.Type) =>
    callService((client) => client.transfers.create({ payload, ...idempotencyHeaders(clientRequestId) })),
  get_transfer: ({ id }: typeof GetTransfer.parametersSchema.Type) =>
    callService((client) => client.transfers.get({ params: { id } }))
}
