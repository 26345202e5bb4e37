import { Schema } from "effect"
import { ReceiveHandleText } from "../identity/model.ts"
import { Mode, millisOfIso, TeamId, UNAMBIGUOUS_ALPHABET } from "../shared/model.ts"
import { receiveAddressOf } from "./ReceiveAddress.ts"

/** How many random characters follow `PC-`. */
export const PAYMENT_CODE_LENGTH = 8

/** The bounds and default of a payment code's lifetime, in seconds. */
export const PAYMENT_CODE_TTL_SECONDS = { minimum: 60, maximum: 30 * 86_400, default: 7 * 86_400 } as const

/** The longest memo a payment code carries. */
export const PAYMENT_CODE_MEMO_MAX_LENGTH = 500

const codePattern = new RegExp(`^PC-[${UNAMBIGUOUS_ALPHABET.toUpperCase()}]{${PAYMENT_CODE_LENGTH}}$`, "u")

/** `PC-` and eight upper-case characters of the unambiguous alphabet. */
export const PaymentCodeText = Schema.String.check(
  Schema.isPattern(codePattern, { message: "expected PC- and eight unambiguous characters" })
)

/** The canonical form of a code as a client typed it (upper case); none when it cannot be a code. */
export const normalizePaymentCode = (text: string): string | undefined => {
  const upper = text.trim().toUpperCase()
  return codePattern.test(upper) ? upper : undefined
}

/**
 * A single-use code a recipient hands out, optionally fixing the amount and memo of the transfer made with it. The
 * recipient is the team (and its handle, and name as read) in the code's mode. An open transfer made with it reserves it
 * (`reservedByTransferId`) until it ends: accepted, it uses the code (`usedAt` and `usedByTransferId`, set together,
 * once); ended otherwise (declined, canceled, expired, denied), it frees it.
 */
export const PaymentCode = Schema.Struct({
  code: PaymentCodeText,
  teamId: TeamId,
  teamName: Schema.String,
  handle: ReceiveHandleText,
  mode: Mode,
  amount: Schema.NullOr(Schema.Int),
  currency: Schema.Literal("USD"),
  memo: Schema.NullOr(Schema.String),
  expiresAt: Schema.String,
  usedAt: Schema.NullOr(Schema.String),
  usedByTransferId: Schema.NullOr(Schema.String),
  /** The open transfer made with the code, which alone may use it; null when none holds it (and once used). */
  reservedByTransferId: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type PaymentCode = typeof PaymentCode.Type

/** `active` until an open transfer reserves it, used once a transfer completed with it, `expired` past its expiry. */
export const PaymentCodeStatus = Schema.Literals(["active", "reserved", "used", "expired"]).annotate({
  description: "As of now: `active`; `reserved` while an open transfer made with it holds it; `used`; `expired`.",
  examples: ["active"]
})
export type PaymentCodeStatus = typeof PaymentCodeStatus.Type

/**
 * A code's status at `nowMillis`: used once used, reserved while an open transfer holds it (even after its expiry, which
 * only bounds when a transfer can be made with it), else expired from its expiry on.
 */
export const paymentCodeStatus = (
  code: Pick<PaymentCode, "usedAt" | "reservedByTransferId" | "expiresAt">,
  nowMillis: number
): PaymentCodeStatus =>
  code.usedAt !== null
    ? "used"
    : code.reservedByTransferId !== null
      ? "reserved"
      : millisOfIso(code.expiresAt) <= nowMillis
        ? "expired"
        : "active"

/**
 * Why the transfer `transferId` may not take the code at `nowMillis` (reserve it when made, use it when accepted);
 * undefined when it may: the code is unused and either held by that transfer or free and unexpired.
 */
export const paymentCodeRefusal = (
  code: Pick<PaymentCode, "usedAt" | "reservedByTransferId" | "expiresAt">,
  transferId: string,
  nowMillis: number
): PaymentCodeUnusable["status"] | undefined => {
  if (code.usedAt !== null) return "used"
  if (code.reservedByTransferId !== null) return code.reservedByTransferId === transferId ? undefined : "reserved"
  return millisOfIso(code.expiresAt) <= nowMillis ? "expired" : undefined
}

/** A payment code as clients see it. */
export const PaymentCodeView = Schema.Struct({
  object: Schema.Literal("payment_code").annotate({ description: "Always `payment_code`." }),
  code: Schema.String.annotate({
    description: "The single-use code: `PC-` and eight characters.",
    examples: ["PC-7H3K9QWZ"]
  }),
  address: Schema.String.annotate({
    description: "The receive address of the team the code pays.",
    examples: ["acme-7k2q@svc"]
  }),
  teamName: Schema.String.annotate({ description: "The name of the team the code pays.", examples: ["Acme Inc."] }),
  mode: Mode,
  amount: Schema.NullOr(Schema.Int).annotate({
    description: "The fixed amount in USD minor units (1999 is 19.99 USD); null when the sender chooses.",
    examples: [1999]
  }),
  currency: Schema.Literal("USD").annotate({ description: "Always `USD`." }),
  memo: Schema.NullOr(Schema.String).annotate({
    description: "The memo a transfer with the code carries; null when none.",
    examples: ["Invoice 2026-014"]
  }),
  status: PaymentCodeStatus,
  expiresAt: Schema.String.annotate({
    description: "When the code expires (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  usedAt: Schema.NullOr(Schema.String).annotate({
    description: "When a completed transfer used the code (ISO 8601, UTC); null until then."
  }),
  createdAt: Schema.String.annotate({
    description: "When the code was created (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  })
})
export type PaymentCodeView = typeof PaymentCodeView.Type

/** The view of a code as of `nowMillis`. */
export const paymentCodeView = (code: PaymentCode, nowMillis: number): PaymentCodeView => ({
  object: "payment_code",
  code: code.code,
  address: receiveAddressOf(code.handle, code.mode),
  teamName: code.teamName,
  mode: code.mode,
  amount: code.amount,
  currency: code.currency,
  memo: code.memo,
  status: paymentCodeStatus(code, nowMillis),
  expiresAt: code.expiresAt,
  usedAt: code.usedAt,
  createdAt: code.createdAt
})

/** No payment code of this text in the caller's mode (unknown, malformed, or of the other mode). */
export class PaymentCodeNotFound extends Schema.TaggedError<PaymentCodeNotFound>()("PaymentCodeNotFound", {
  code: Schema.String
}) {}

/** The code cannot be taken: it was used already, another open transfer holds it, or it is past its expiry. */
export class PaymentCodeUnusable extends Schema.TaggedError<PaymentCodeUnusable>()("PaymentCodeUnusable", {
  code: Schema.String,
  status: Schema.Literals(["used", "reserved", "expired"])
}) {}
