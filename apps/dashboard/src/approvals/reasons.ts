import { describeReason as inWords, type ReasonFigures } from "@svc/domain/model"
import { formatMoney } from "../format/money.ts"

/** A policy reason with the numbers the decision carries (amounts in minor units of the request's currency). */
export type Reason = ReasonFigures

/** A reason in words, its limit and what was used in money of `currency` in the reader's locale ("… ($10.00)"). */
export const describeReason = (reason: Reason, currency: string | null): string =>
  inWords(reason, currency === null ? null : (amountMinor) => formatMoney(amountMinor, currency))
