import { TransferDirection, TransferStatus } from "@svc/domain/model"
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { amountFlags, amountOf } from "../Amount.ts"
import { call, connect } from "../Api.ts"
import { exitForStatus } from "../Failure.ts"
import { idempotencyHeaders, idempotencyKeyFlag } from "../Idempotency.ts"
import { limited, listCommand, listFlags } from "../Lists.ts"
import { show } from "../Output.ts"
import * as Render from "../Render.ts"

const idArgument = Argument.String("id").pipe(Argument.withDescription("The transfer's id"))

/** An address has an `@` (`acme-7fk2@svc`); anything else is taken as a payment code. */
const recipient = (to: string) => (to.includes("@") ? { address: to } : { paymentCode: to })

const send = Command.make(
  "send",
  {
    to: Flag.String("to").pipe(Flag.withDescription("The recipient's receive address (name@svc) or a payment code")),
    ...amountFlags,
    memo: Flag.String("memo").pipe(Flag.withDescription("A note the recipient sees"), Flag.optional),
    idempotencyKey: idempotencyKeyFlag
  },
  Effect.fn(function* (input) {
    const money = yield* amountOf(input, "USD")
    const connection = yield* connect
    const payload = {
      to: recipient(input.to.trim()),
      ...money,
      ...(Option.isSome(input.memo) ? { memo: input.memo.value } : {})
    }
    const sent = yield* call(
      connection,
      connection.client.transfers.create({ ...idempotencyHeaders(input.idempotencyKey), payload })
    )
    yield* show(sent, Render.transfer)
    yield* exitForStatus(sent.status)
  })
).pipe(
  Command.withDescription(
    "Send money to another team (USD unless --currency): exits 0 when sent, 3 when the policy denies it, 4 while it " +
      "waits for approval"
  )
)

const list = Command.make(
  "list",
  {
    ...listFlags,
    status: Flag.Literals("status", TransferStatus.literals).pipe(
      Flag.withDescription("Only transfers with this status"),
      Flag.optional
    ),
    direction: Flag.Literals("direction", TransferDirection.literals).pipe(
      Flag.withDescription("Only incoming or outgoing transfers"),
      Flag.optional
    )
  },
  Effect.fn(function* ({ all, limit, status, direction }) {
    const connection = yield* connect
    const query = limited(
      {
        ...(Option.isSome(status) ? { status: status.value } : {}),
        ...(Option.isSome(direction) ? { direction: direction.value } : {})
      },
      limit
    )
    yield* listCommand(connection, connection.client.transfers.list, { query }, all, Render.transfers)
  })
).pipe(Command.withDescription("List transfers sent and received, newest first"))

const answer = (name: "accept" | "decline", description: string) =>
  Command.make(
    name,
    { id: idArgument },
    Effect.fn(function* ({ id }) {
      const connection = yield* connect
      yield* show(yield* call(connection, connection.client.transfers[name]({ params: { id } })), Render.transfer)
    })
  ).pipe(Command.withDescription(description))

/** `svc transfers send|list|accept|decline`. */
export const transfers = Command.make("transfers").pipe(
  Command.withDescription("Book transfers between teams"),
  Command.withSubcommands([
    send,
    list,
    answer("accept", "Accept an incoming transfer: the money is yours"),
    answer("decline", "Decline an incoming transfer: the money goes back to the sender")
  ])
)
