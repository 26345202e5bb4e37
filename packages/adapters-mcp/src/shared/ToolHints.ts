import { Context } from "effect"
import { Tool } from "effect/ai"

/**
 * What a tool does, as the four MCP tool annotations say it to hosts and agents. Every tool states all four: the
 * protocol's defaults (destructive, open world) are wrong for a read and would be guessed for a write.
 */
export interface ToolHints {
  /** It only reads: nothing changes, whatever the arguments. */
  readonly readOnly: boolean
  /** It may change or move what already exists (money leaves an account, a hold is released), not only add. */
  readonly destructive: boolean
  /** Calling it again with the same arguments changes nothing more. */
  readonly idempotent: boolean
  /** It reaches beyond this service (a card network, a merchant). */
  readonly openWorld: boolean
}

/** The annotations of `hints`, for `Tool.annotateMerge`. */
export const toolHints = (hints: ToolHints) =>
  Context.make(Tool.Readonly, hints.readOnly).pipe(
    Context.add(Tool.Destructive, hints.destructive),
    Context.add(Tool.Idempotent, hints.idempotent),
    Context.add(Tool.OpenWorld, hints.openWorld)
  )

/** A read of this service's own records. */
export const readsOnly = toolHints({ readOnly: true, destructive: false, idempotent: true, openWorld: false })
