import type { ApiError } from "@svc/sdk"
import { Data, Effect, Runtime } from "effect"

/** The process exit codes of `svc`, one per kind of outcome (documented in `svc --help` and the README). */
export const ExitCode = {
  success: 0,
  unexpected: 1,
  usage: 2,
  denied: 3,
  pending: 4,
  apiError: 5,
  unavailable: 6,
  notLoggedIn: 7
} as const

/** The help text listing the exit codes. */
export const exitCodesHelp =
  "Exit codes: 0 success or approved; 1 an unexpected failure (a bug: report it); 2 usage error (nothing was sent); 3 denied (or expired/canceled before a " +
  "decision); 4 still pending approval; 5 the API refused the request (4xx); 6 the service could not be reached or " +
  "failed (5xx); 7 not logged in or the credential was refused (401)."

/**
 * Ends the command with an exit code; `message` (possibly empty when the outcome was already printed) goes to stderr.
 * Runtime markers make `runMain` exit with the code without logging the error again.
 */
export class CliExit extends Data.TaggedError("CliExit")<{
  readonly exitCode: number
  readonly message: string
}> {
  override readonly [Runtime.errorReported] = false
  override get [Runtime.errorExitCode](): number {
    return this.exitCode
  }
}

/**
 * The one shape of every failure `svc` prints on stderr, whatever failed: `error: <what failed>`, then each detail
 * indented by two spaces, then the lines that say what to do next (`see: ...`, `request id: ...`).
 */
export const failure = (
  exitCode: number,
  headline: string,
  details: ReadonlyArray<string> = [],
  next: ReadonlyArray<string> = []
) =>
  new CliExit({
    exitCode,
    message: [`error: ${headline}`, ...details.map((detail) => `  ${detail}`), ...next].join("\n")
  })

/** A usage error: the arguments are wrong and nothing was sent. */
export const usage = (message: string, next: ReadonlyArray<string> = []) => failure(ExitCode.usage, message, [], next)

/** A failure nobody planned for (a defect): exit 1, its message alone, never a stack trace. */
export const unexpected = (defect: unknown) =>
  failure(
    ExitCode.unexpected,
    `unexpected failure: ${defect instanceof Error ? defect.message : String(defect)}`,
    [],
    ["this is a bug in svc: please report it with the command you ran"]
  )

/** The exit code an API failure maps to. */
const exitCodeOf = (error: ApiError): number => {
  if (error.status === 0) return error.error === "validation_failed" ? ExitCode.usage : ExitCode.unavailable
  if (error.status === 401) return ExitCode.notLoggedIn
  if (error.status >= 500) return ExitCode.unavailable
  return ExitCode.apiError
}

/** A failed call as the user reads it: the service's code, status, message, each invalid field and the request id. */
export const fromApiError = (error: ApiError, baseUrl: string): CliExit => {
  const status = error.status === 0 ? "" : ` (${error.status})`
  const issues = error.details ?? []
  // A client-side validation message repeats its issues (with their paths) after its first line; they are listed below.
  const message = issues.length === 0 ? error.message : (error.message.split("\n")[0] ?? error.message)
  const details = [
    ...issues.map((issue) => `${issue.path === "" ? "(body)" : issue.path}: ${issue.message}`),
    ...(error.error === "connection_error" ? [`could not reach ${baseUrl}`] : [])
  ]
  const next = [
    ...(error.status === 401 ? ["log in again: svc login"] : []),
    ...(error.requestId === undefined ? [] : [`request id: ${error.requestId}`])
  ]
  return failure(exitCodeOf(error), `${error.error}${status}: ${message}`, details, next)
}

/** The exit of a decided outcome: 0 approved (or settled), 3 refused, 4 still pending. */
export const exitForStatus = (status: string) =>
  status === "pending_approval"
    ? Effect.fail(new CliExit({ exitCode: ExitCode.pending, message: "" }))
    : status === "denied" || status === "expired" || status === "canceled" || status === "declined"
      ? Effect.fail(new CliExit({ exitCode: ExitCode.denied, message: "" }))
      : Effect.void
