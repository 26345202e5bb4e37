import { Schema } from "effect"
import { exponentOf, renderMinor } from "../money/model.ts"
import type { Transaction } from "../transactions/model.ts"
import type { InboxItem } from "./InboxItems.ts"

/** Why a transaction is suggested for an inbox item. */
export const SuggestionReason = Schema.Literals(["amount", "date", "name"])
export type SuggestionReason = typeof SuggestionReason.Type

/** A transaction an inbox item may belong to, with its score (0..1) and the reasons behind it. */
export const InboxSuggestion = Schema.Struct({
  transactionId: Schema.String,
  name: Schema.String,
  date: Schema.String,
  amount: Schema.Number,
  currency: Schema.String,
  score: Schema.Number,
  reasons: Schema.Array(SuggestionReason)
})
export type InboxSuggestion = typeof InboxSuggestion.Type

/** How many suggestions an item gets, and how far (in days) a transaction's date still counts. */
export const MAX_SUGGESTIONS = 5
export const SUGGESTION_WINDOW_DAYS = 30

const WEIGHTS = { amount: 0.5, date: 0.3, name: 0.2 } as const
const AMOUNT = /(?<![\d.,])(\d{1,3}(?:[.,']\d{3})+|\d+)(?:[.,](\d{1,2}))?(?!\d)/gu
const ISO_DATE = /\d{4}-\d{2}-\d{2}/gu
const NOISE = new Set([
  "com",
  "net",
  "org",
  "mail",
  "email",
  "noreply",
  "reply",
  "billing",
  "invoice",
  "invoices",
  "info"
])

/** The amounts written in a text (`1,234.56`, `1.234,56`, `99`, `12,5`), each as whole and fraction digits. */
export const amountsIn = (text: string): ReadonlyArray<{ readonly whole: string; readonly fraction: string }> =>
  [...text.replace(ISO_DATE, " ").matchAll(AMOUNT)].map((m) => ({
    whole: (m[1] ?? "").replace(/[.,']/gu, ""),
    fraction: m[2] ?? ""
  }))

/** An amount as minor units of a currency with `exponent` decimals; undefined when it has more decimals. */
const minorOf = (amount: { readonly whole: string; readonly fraction: string }, exponent: number) =>
  amount.fraction.length > exponent
    ? undefined
    : Number(amount.whole) * 10 ** exponent + Number(amount.fraction.padEnd(exponent, "0") || "0")

/** Lower-case words of three letters or more, without the usual e-mail noise. */
const wordsOf = (text: string): ReadonlySet<string> =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !NOISE.has(w)))

const dayNumber = (date: string) =>
  Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000

/**
 * The team's transactions an inbox item most likely belongs to, best first: an amount written in its subject, text or
 * attachment names equal to the transaction's (absolute) amount, a date near the item's arrival, and words shared by
 * the sender and the transaction's counterparty (or name). A transaction needs an amount or a name in common to be
 * suggested; ties go to the nearer date, then the id. Deterministic: a pure function of its inputs.
 */
export const suggestMatches = (
  item: Pick<InboxItem, "subject" | "textBody" | "sender" | "attachments" | "createdAt">,
  transactions: ReadonlyArray<
    Pick<Transaction, "id" | "name" | "date" | "amountMinor" | "currency" | "counterpartyName">
  >
): ReadonlyArray<InboxSuggestion> => {
  const amounts = amountsIn([item.subject, item.textBody, ...item.attachments.map((a) => a.filename)].join("\n"))
  const senderWords = wordsOf(item.sender)
  const received = dayNumber(item.createdAt.slice(0, 10))
  return transactions
    .map((t) => {
      const exponent = exponentOf(t.currency)
      const amountMatch = amounts.some((a) => minorOf(a, exponent) === Math.abs(t.amountMinor))
      const days = Math.abs(dayNumber(t.date) - received)
      const dateScore = Math.max(0, 1 - days / SUGGESTION_WINDOW_DAYS)
      const theirWords = wordsOf(t.counterpartyName ?? t.name)
      const shared = [...theirWords].filter((w) => senderWords.has(w)).length
      const nameScore = theirWords.size === 0 ? 0 : shared / theirWords.size
      const reasons: Array<SuggestionReason> = [
        ...(amountMatch ? (["amount"] as const) : []),
        ...(dateScore > 0 ? (["date"] as const) : []),
        ...(nameScore > 0 ? (["name"] as const) : [])
      ]
      const score = (amountMatch ? WEIGHTS.amount : 0) + WEIGHTS.date * dateScore + WEIGHTS.name * nameScore
      return { t, days, reasons, score, relevant: amountMatch || nameScore > 0 }
    })
    .filter((s) => s.relevant)
    .toSorted((a, b) => b.score - a.score || a.days - b.days || (a.t.id < b.t.id ? -1 : a.t.id > b.t.id ? 1 : 0))
    .slice(0, MAX_SUGGESTIONS)
    .map(({ t, reasons, score }) => ({
      transactionId: t.id,
      name: t.name,
      date: t.date,
      amount: renderMinor(t.amountMinor, t.currency),
      currency: t.currency,
      score: Math.round(score * 100) / 100,
      reasons
    }))
}
