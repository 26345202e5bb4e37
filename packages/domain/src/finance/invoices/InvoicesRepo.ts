import { Context, type Effect, type Option } from "effect"
import type { PageRequest, PersistenceUnavailable, TeamId } from "../../shared/model.ts"
import type { Invoice, InvoiceStatus, StoredInvoiceStatus } from "./Invoice.ts"

/** Which invoices a list keeps: one status as seen at `nowIso` (null: all), one customer (null: all). */
export interface InvoiceFilter {
  readonly status: InvoiceStatus | null
  readonly customerId: string | null
  readonly nowIso: string
}

/** Storage of a team's invoices and its invoice-number counter. Another team's invoice is not found. */
export class InvoicesRepo extends Context.Service<
  InvoicesRepo,
  {
    /**
     * The team's next invoice number (1, 2, ...), counted in the calling transaction: the counter stays locked until it
     * ends and comes back when it rolls back, so numbers are handed out once, in order, without gaps.
     */
    readonly nextNumber: (teamId: TeamId) => Effect.Effect<number, PersistenceUnavailable>
    /** Inserts an invoice; false (nothing written) when the team already has an invoice with its number. */
    readonly insert: (invoice: Invoice) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly find: (teamId: TeamId, id: string) => Effect.Effect<Option.Option<Invoice>, PersistenceUnavailable>
    /** An invoice by id alone, whatever its team (a file-key download checks the team afterwards). */
    readonly findById: (id: string) => Effect.Effect<Option.Option<Invoice>, PersistenceUnavailable>
    /** The invoice a public token opens, whatever its team. */
    readonly findByToken: (token: string) => Effect.Effect<Option.Option<Invoice>, PersistenceUnavailable>
    /** The team's invoices newest first, up to `page.limit + 1`, kept by the filter. */
    readonly list: (
      teamId: TeamId,
      filter: InvoiceFilter,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<Invoice>, PersistenceUnavailable>
    /** Every invoice of the team (summaries). */
    readonly all: (teamId: TeamId) => Effect.Effect<ReadonlyArray<Invoice>, PersistenceUnavailable>
    /**
     * Replaces a stored invoice if it is still in status `from` and its new number is not another invoice's: `updated`,
     * `stale` (no invoice of the team with that id in that status) or `number_taken`.
     */
    readonly replace: (
      invoice: Invoice,
      from: StoredInvoiceStatus
    ) => Effect.Effect<"updated" | "stale" | "number_taken", PersistenceUnavailable>
    /** Deletes an invoice if it is still in status `from`; false when it is not. */
    readonly delete: (
      teamId: TeamId,
      id: string,
      from: StoredInvoiceStatus
    ) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/InvoicesRepo") {}
