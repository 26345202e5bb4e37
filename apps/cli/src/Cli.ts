import { Console, Effect } from "effect"
import { CliError, CliOutput, Command } from "effect/cli"
import { baseUrlHelp } from "./Credentials.ts"
import { approvals } from "./commands/approvals.ts"
import { balance } from "./commands/balance.ts"
import { changelog } from "./commands/changelog.ts"
import { checkout } from "./commands/checkout.ts"
import { login, logout } from "./commands/login.ts"
import { mcp } from "./commands/mcp.ts"
import { spend } from "./commands/spend.ts"
import { transfers } from "./commands/transfers.ts"
import { CliExit, ExitCode, exitCodesHelp } from "./Failure.ts"
import { JsonOutput } from "./Output.ts"

/** The subcommands of `svc`: a new one is one import and one entry here. */
const subcommands = [login, logout, balance, spend, approvals, transfers, checkout, mcp, changelog] as const

/** The `svc` command tree. */
const svc = Command.make("svc").pipe(
  Command.withDescription(
    "Governed agent spend from the terminal: log in once, then spend, approve, transfer and check out. " +
      "Human output by default; --json prints the API's JSON on stdout. " +
      `Where the service is: ${baseUrlHelp}. ` +
      exitCodesHelp
  ),
  Command.withSubcommands(subcommands),
  Command.withGlobalFlags([JsonOutput])
)

/** Usage errors go to stderr only (stdout stays for answers), with a pointer to the help. */
const presenter = CliOutput.layerPresenter({
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Effect.gen(function* () {
          const formatter = yield* CliOutput.Formatter
          yield* Console.error(formatter.formatErrors(event.errors))
          yield* Console.error(`see: ${event.commandPath.join(" ")} --help`)
        })
      : CliOutput.defaultPresenter.present(event)
})

/**
 * Runs `svc` on the process's arguments. Every failure ends as a `CliExit` whose code `runMain` exits with, its
 * message printed on stderr: usage errors 2 (help alone, for a command group called bare, is 0).
 */
export const cli = Command.run(svc, { version: "0.0.1" }).pipe(
  Effect.catch((error) => {
    if (error instanceof CliExit) return Effect.fail(error)
    if (CliError.isCliError(error)) {
      if (error._tag === "ShowHelp" && error.errors.length === 0) return Effect.void
      return Effect.fail(
        new CliExit({ exitCode: ExitCode.usage, message: error._tag === "ShowHelp" ? "" : `error: ${error.message}` })
      )
    }
    return Effect.fail(new CliExit({ exitCode: 1, message: `error: ${String(error)}` }))
  }),
  Effect.tapError((exit) => (exit.message === "" ? Effect.void : Console.error(exit.message))),
  Effect.provide(presenter)
)
