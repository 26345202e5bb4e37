import { Console, Effect } from "effect"
import { CliError, CliOutput, Command } from "effect/cli"
import { baseUrlHelp } from "./Credentials.ts"
import { approvals } from "./commands/approvals.ts"
import { balance } from "./commands/balance.ts"
import { changelog } from "./commands/changelog.ts"
import { checkout } from "./commands/checkout.ts"
import { login, logout } from "./commands/login.ts"
import { mcp } from "./commands/mcp.ts"
import { pay } from "./commands/pay.ts"
import { spend } from "./commands/spend.ts"
import { transfers } from "./commands/transfers.ts"
import { CliExit, ExitCode, exitCodesHelp, failure, unexpected, usage } from "./Failure.ts"
import { JsonOutput } from "./Output.ts"

/** The subcommands of `svc`: a new one is one import and one entry here. */
const subcommands = [login, logout, balance, spend, approvals, transfers, checkout, pay, mcp, changelog] as const

/** The `svc` command tree. */
const svc = Command.make("svc").pipe(
  Command.withDescription(
    "Governed agent spend from the terminal: log in once, then spend, approve, transfer and check out. " +
      "Human output by default; --json prints the API's JSON on stdout. " +
      `The service's URL: ${baseUrlHelp}. ` +
      exitCodesHelp
  ),
  Command.withSubcommands(subcommands),
  Command.withGlobalFlags([JsonOutput])
)

/**
 * Help and the version go to stdout as effect/cli presents them; an invalid invocation is printed by `cli` below, in
 * the one failure style, so nothing is presented for it here.
 */
const presenter = CliOutput.layerPresenter({
  present: (event) => (event._tag === "InvalidInvocation" ? Effect.void : CliOutput.defaultPresenter.present(event))
})

/** Any failure of a run as the exit it ends with: its code and its text in the one failure style (`failure`). */
const exitOf = (error: unknown): CliExit => {
  if (error instanceof CliExit) return error
  if (CliError.isCliError(error)) {
    if (error._tag !== "ShowHelp") return usage(error.message)
    // effect/cli's messages may run over lines ("Did you mean this?" and the suggestions): one detail line each.
    const lines = error.errors.map((e) =>
      e.message
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "")
    )
    const [headline, ...more] = lines.flatMap((message) => [message[0] ?? "", message.slice(1).join(" ")])
    return failure(
      ExitCode.usage,
      headline ?? "invalid invocation",
      more.filter((line) => line !== ""),
      [`see: ${error.commandPath.join(" ")} --help`]
    )
  }
  return unexpected(error)
}

/**
 * Runs `svc` on the process's arguments. Every failure (a usage error from effect/cli or ours, an API error, the
 * service unreachable, a defect) ends as one `CliExit`, printed once on stderr in the one style, its code the one
 * `runMain` exits with; help alone (`svc --help`, or a command group called bare) is 0.
 */
export const cli = Command.run(svc, { version: "0.0.1" }).pipe(
  Effect.catchIf(
    (error) => CliError.isCliError(error) && error._tag === "ShowHelp" && error.errors.length === 0,
    () => Effect.void
  ),
  Effect.catch((error) => Effect.fail(exitOf(error))),
  Effect.catchDefect((defect) => Effect.fail(unexpected(defect))),
  Effect.tapError((exit) => (exit.message === "" ? Effect.void : Console.error(exit.message))),
  Effect.provide(presenter)
)
