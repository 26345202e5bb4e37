import { ApprovalStatus } from "@svc/domain/model"
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { call, connect } from "../Api.ts"
import { limited, listCommand, listFlags } from "../Lists.ts"
import { show } from "../Output.ts"
import * as Render from "../Render.ts"

const idArgument = Argument.String("id").pipe(Argument.withDescription("The approval's id"))
const noteFlag = Flag.String("note").pipe(Flag.withDescription("A note kept with the decision"), Flag.optional)

const list = Command.make(
  "list",
  {
    ...listFlags,
    status: Flag.Literals("status", ApprovalStatus.literals).pipe(
      Flag.withDescription("Only approvals with this status"),
      Flag.optional
    )
  },
  Effect.fn(function* ({ all, limit, status }) {
    const connection = yield* connect
    const query = limited(Option.isSome(status) ? { status: status.value } : {}, limit)
    yield* listCommand(connection, connection.client.treasury.approvals, { query }, all, Render.approvals)
  })
).pipe(Command.withDescription("List the team's approvals, newest first"))

const decide = (name: "approve" | "deny", description: string) =>
  Command.make(
    name,
    { id: idArgument, note: noteFlag },
    Effect.fn(function* ({ id, note }) {
      const connection = yield* connect
      const payload = Option.isSome(note) ? { note: note.value } : {}
      yield* show(
        yield* call(connection, connection.client.treasury[name]({ params: { id }, payload })),
        Render.approval
      )
    })
  ).pipe(Command.withDescription(description))

/** `svc approvals list|approve|deny`, with a session token of a member who may decide. */
export const approvals = Command.make("approvals").pipe(
  Command.withDescription("Approvals of the team (log in with a session token)"),
  Command.withSubcommands([
    list,
    decide("approve", "Approve: the spend, transfer or checkout goes ahead once the quorum is reached"),
    decide("deny", "Deny: the spend, transfer or checkout is refused and its hold released")
  ])
)
