import {
  type AccountId,
  Activity,
  ApprovalId,
  ApprovalsRepo,
  Checkout,
  type CheckoutIntent,
  type CryptoPayout,
  CryptoPayoutId,
  CryptoPayouts,
  CryptoPayoutsRepo,
  checkoutIntentView,
  cryptoPayoutView,
  Ledger,
  type LedgerTransaction,
  mergedPageRows,
  type SpendRequest,
  SpendRequests,
  spendRequestJson,
  type TeamId,
  type Transfer,
  Transfers,
  toPage,
  transferView,
  type X402Payment,
  X402Payments,
  x402PaymentView
} from "@svc/domain"
import {
  type ApprovalSubjectType,
  type ApprovalView,
  ledgerAccountView,
  ledgerTransactionView
} from "@svc/domain/model"
import { Effect, Option, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CurrentTeamPrincipal, conflict, forbidden, notFound } from "../../api/shared/index.ts"
import { invalidField, listPaging, orServiceUnavailable } from "../shared/index.ts"

/** The answer for an approval of `subjectType`: the approval's own fields and its `subject`. */
const approvalAnswer = <const T extends ApprovalSubjectType, S>(
  approval: ApprovalView,
  subjectType: T,
  subject: S
) => ({
  ...approval,
  object: "approval" as const,
  subjectType,
  subject
})

const approval = (sr: SpendRequest) => approvalAnswer(sr.approval!, "spend_request", spendRequestJson(sr))

const transferApproval = (t: Transfer) => approvalAnswer(t.approval!, "transfer", transferView(t, "outgoing"))

const intentApproval = (intent: CheckoutIntent) =>
  approvalAnswer(intent.approval!, "checkout_intent", checkoutIntentView(intent))

const payoutApproval = (p: CryptoPayout) => approvalAnswer(p.approval!, "crypto_payout", cryptoPayoutView(p))

const x402Approval = (p: X402Payment) => approvalAnswer(p.approval!, "x402_payment", x402PaymentView(p))

/** An approval's subject, of any kind, in the queue's newest-first order (its subject's creation). */
type Subject =
  | { readonly createdAt: string; readonly id: string; readonly spend: SpendRequest }
  | { readonly createdAt: string; readonly id: string; readonly transfer: Transfer }
  | { readonly createdAt: string; readonly id: string; readonly intent: CheckoutIntent }
  | { readonly createdAt: string; readonly id: string; readonly payout: CryptoPayout }
  | { readonly createdAt: string; readonly id: string; readonly x402: X402Payment }

const approvalOf = (subject: Subject) =>
  "spend" in subject
    ? approval(subject.spend)
    : "transfer" in subject
      ? transferApproval(subject.transfer)
      : "intent" in subject
        ? intentApproval(subject.intent)
        : "payout" in subject
          ? payoutApproval(subject.payout)
          : x402Approval(subject.x402)

/** The team the principal acts for; sessions without a team get 403. */
const principalTeam = Effect.gen(function* () {
  const principal = yield* CurrentTeamPrincipal
  if (principal.teamId === null) return yield* forbidden("team_required", "create a team first (POST /teams)")
  return { principal, teamId: principal.teamId as TeamId }
})

export const TreasuryHttp = HttpApiBuilder.group(Api, "treasury", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, pageOfList, signedPage } = yield* listPaging
    const ledger = yield* Ledger
    const spend = yield* SpendRequests
    const transfers = yield* Transfers
    const checkout = yield* Checkout
    const payouts = yield* CryptoPayouts
    const payoutsRepo = yield* CryptoPayoutsRepo
    const x402 = yield* X402Payments

    /** The on-chain hashes of the crypto payouts among `rows`, by payout id. */
    const payoutHashes = (rows: ReadonlyArray<LedgerTransaction>) =>
      Effect.gen(function* () {
        const hashes = new Map<string, string | null>()
        for (const tx of rows) {
          if (tx.code !== "crypto_payout" || hashes.has(tx.reference)) continue
          const found = Schema.is(CryptoPayoutId)(tx.reference) ? yield* payoutsRepo.find(tx.reference) : Option.none()
          hashes.set(tx.reference, Option.isSome(found) ? found.value.txHash : null)
        }
        return hashes
      })
    const approvals = yield* ApprovalsRepo
    const activity = yield* Activity

    const decide = (outcome: "approve" | "deny", id: string, note: string | undefined) =>
      Effect.gen(function* () {
        const { principal, teamId } = yield* principalTeam
        const found = Schema.is(ApprovalId)(id) ? yield* approvals.find(teamId, id) : Option.none()
        const subjectType = Option.isSome(found) ? found.value.subjectType : "spend_request"
        switch (subjectType) {
          case "transfer":
            return transferApproval(yield* transfers[outcome](principal, id, note ?? null))
          case "checkout_intent":
            return intentApproval(yield* checkout[outcome](principal, id, note ?? null))
          case "crypto_payout":
            return payoutApproval(yield* payouts[outcome](principal, id, note ?? null))
          case "x402_payment": {
            // Approving signs in the same transaction: the payment is read again to show it signed.
            const decided = yield* x402[outcome](principal, id, note ?? null)
            return x402Approval(yield* x402.get(decided.teamId, decided.mode, decided.id))
          }
          case "spend_request":
            return approval(yield* spend[outcome](principal, id, note ?? null))
        }
      }).pipe(
        Effect.catchTags({
          ApprovalNotFound: () => Effect.fail(notFound(`no approval ${id}`)),
          SpendRequestNotPending: (e) =>
            Effect.fail(
              conflict(
                "approval_not_pending",
                `the approval can no longer be decided: the spend request is ${e.status}`
              )
            ),
          TransferNotPending: (e) =>
            Effect.fail(
              conflict("approval_not_pending", `the approval can no longer be decided: the transfer is ${e.status}`)
            ),
          CheckoutIntentNotUsable: (e) =>
            Effect.fail(
              conflict(
                "approval_not_pending",
                `the approval can no longer be decided: the checkout intent is ${e.status}`
              )
            ),
          CryptoPayoutNotPending: (e) =>
            Effect.fail(
              conflict("approval_not_pending", `the approval can no longer be decided: the payout is ${e.status}`)
            ),
          X402PaymentNotPending: (e) =>
            Effect.fail(
              conflict("approval_not_pending", `the approval can no longer be decided: the x402 payment is ${e.status}`)
            ),
          // Read again right after it was decided: x402 payments are never deleted.
          X402PaymentNotFound: Effect.die,
          ApproverNotAllowed: (e) => Effect.fail(forbidden("forbidden", e.message)),
          ApprovalStepRefused: (e) =>
            Effect.fail(
              e.reason === "already_decided"
                ? conflict("already_decided", e.message)
                : forbidden(e.reason === "not_eligible" ? "forbidden" : e.reason, e.message)
            ),
          SpendingFrozen: (e) => Effect.fail(conflict("spending_frozen", e.message))
        }),
        orServiceUnavailable
      )

    return handlers
      .handle("accounts", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return yield* pageOfList(
            `treasury-accounts:${teamId}`,
            query,
            yield* ledger.accounts(teamId, {}),
            ledgerAccountView
          )
        }).pipe(orServiceUnavailable)
      )
      .handle("ledger", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const scope = `treasury-ledger:${teamId}`
          const page = yield* pageOf(scope, query)
          const rows = yield* ledger.transactions(teamId, { accountId: query.accountId as AccountId | undefined }, page)
          const hashes = yield* payoutHashes(rows)
          return yield* signedPage(
            scope,
            toPage(page, rows, (tx) =>
              tx.code === "crypto_payout"
                ? { ...ledgerTransactionView(tx), txHash: hashes.get(tx.reference) ?? null }
                : ledgerTransactionView(tx)
            )
          )
        }).pipe(orServiceUnavailable)
      )
      .handle("approvals", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const scope = `treasury-approvals:${teamId}`
          const page = yield* pageOf(scope, query)
          const filter = { approvalStatus: query.status ?? undefined, withApproval: true }
          const [spendRows, transferRows, intentRows, payoutRows, x402Rows] = yield* Effect.all([
            spend.list(teamId, filter, page),
            transfers.list(teamId, { ...filter, direction: "outgoing" }, page),
            checkout.list(teamId, filter, page),
            payouts.list(teamId, filter, page),
            x402.list(teamId, filter, page)
          ])
          const rows = mergedPageRows(page, [
            spendRows.map((sr): Subject => ({ createdAt: sr.createdAt, id: sr.id, spend: sr })),
            transferRows.map((t): Subject => ({ createdAt: t.createdAt, id: t.id, transfer: t })),
            intentRows.map((i): Subject => ({ createdAt: i.createdAt, id: i.id, intent: i })),
            payoutRows.map((p): Subject => ({ createdAt: p.createdAt, id: p.id, payout: p })),
            x402Rows.map((p): Subject => ({ createdAt: p.createdAt, id: p.id, x402: p }))
          ])
          return yield* signedPage(scope, toPage(page, rows, approvalOf))
        }).pipe(orServiceUnavailable)
      )
      .handle("activity", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const scope = `treasury-activity:${teamId}`
          const page = yield* pageOf(scope, query)
          const rows = yield* activity.list(
            teamId,
            {
              kind: query.kind,
              status: query.status,
              keyId: query.keyId,
              from: query.from,
              to: query.to,
              mode: query.mode
            },
            page
          )
          return yield* signedPage(scope, toPage(page, rows))
        }).pipe(
          Effect.catchTag("ActivityFilterInvalid", (e) => Effect.fail(invalidField(`query.${e.field}`, e.message))),
          orServiceUnavailable
        )
      )
      .handle("activityDetail", ({ params }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const detail = yield* activity.detail(teamId, params.kind, params.id)
          return {
            object: "activity_detail" as const,
            item: detail.item,
            trail: detail.trail,
            ledgerTransactions: detail.ledgerTransactions.map(ledgerTransactionView)
          }
        }).pipe(
          Effect.catchTag("ActivityNotFound", () => Effect.fail(notFound(`no ${params.kind} ${params.id}`))),
          orServiceUnavailable
        )
      )
      .handle("spendStats", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return yield* activity.spendStats(teamId, { days: query.days ?? 30, mode: query.mode ?? "live" })
        }).pipe(orServiceUnavailable)
      )
      .handle("approve", ({ params, payload }) => decide("approve", params.id, payload.note))
      .handle("deny", ({ params, payload }) => decide("deny", params.id, payload.note))
  })
)
