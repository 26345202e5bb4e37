import { Effect } from "effect"
import { Command } from "effect/cli"
import { call, connect } from "../Api.ts"
import { show } from "../Output.ts"
import * as Render from "../Render.ts"

/** `svc balance`: the available, posted and pending balance of the credential's account. */
export const balance = Command.make(
  "balance",
  {},
  Effect.fn(function* () {
    const connection = yield* connect
    yield* show(yield* call(connection, connection.client.accounts.balance()), Render.balance)
  })
).pipe(Command.withDescription("Show the balance of the credential's spend account"))
