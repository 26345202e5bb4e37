import type { ApiError } from "@svc/sdk"
import { Data, Effect, Runtime } from "effect"

/** The process exit codes of `svc`, one per kind of outcome (documented in `svc --help` and the README). */
export const ExitCode = {
  success: 0,
  usage: 2,
  denied: 3,
  pending: 4,
  apiError: 5,
  unavailable: 6,
  notLoggedIn: 7
} as const

/** The help text listing the exit codes. */
export const exitCodesHelp =
  "Exit codes: 0 success or approved; 2 usage error (nothing was sent); 3 denied (or expired/canceled before a " +
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

/** A usage error: the arguments are wrong and nothing was sent. */
export const usage = (message: string) => new CliExit({ exitCode: ExitCode.usage, message: `error: ${message}` })

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
  const lines = [`error: ${error.error}${status}: ${error.message}`]
  for (const issue of error.details ?? [])
    lines.push(`  ${issue.path === "" ? "(body)" : issue.path}: ${issue.message}`)
  if (error.error === "connection_error") lines.push(`  could not reach ${baseUrl}`)
  if (error.status === 401) lines.push("  log in again: svc login")
  if (error.requestId !== undefined) lines.push(`request id: ${error.requestId}`)
  return new CliExit({ exitCode: exitCodeOf(error), message: lines.join("\n") })
}

/** The exit of a decided outcome: 0 approved (or settled), 3 refused, 4 still pending. */
export const exitForStatus = (status: string) =>
  status === "pending_approval"
    ? Effect.fail(new CliExit({ exitCode: ExitCode.pending, message: "" }))
    : status === "denied" || status === "expired" || status === "canceled" || status === "declined"
      ? Effect.fail(new CliExit({ exitCode: ExitCode.denied, message: "" }))
      : Effect.void
