import { Effect } from "effect"
import { Command } from "effect/cli"
import { call, connect } from "../Api.ts"
import { show } from "../Output.ts"
import * as Render from "../Render.ts"

/** `svc changelog`: the dated changes to the API, SDK, CLI and MCP tools, newest first, breaking ones marked. */
export const changelog = Command.make(
  "changelog",
  {},
  Effect.fn(function* () {
    const connection = yield* connect
    yield* show(yield* call(connection, connection.client.changelog.list()), Render.changelog)
  })
).pipe(Command.withDescription("Show what changed in the API, SDK, CLI and MCP tools, and what to do"))
