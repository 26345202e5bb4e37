import { Clock, Context, Effect, Layer, Option } from "effect"
import { ReceiveHandleMissing, ReceiveHandlesRepo } from "../identity/index.ts"
import { isoOfMillis, type Mode, type PersistenceUnavailable, randomUnambiguous, type TeamId } from "../shared/index.ts"
import {
  normalizePaymentCode,
  PAYMENT_CODE_LENGTH,
  PAYMENT_CODE_TTL_SECONDS,
  type PaymentCode,
  PaymentCodeNotFound,
  PaymentCodeUnusable,
  paymentCodeStatus
} from "./PaymentCode.ts"
import { PaymentCodesRepo } from "./TransfersRepos.ts"

/** How many codes a creation draws before it gives up (each collides with odds of one in 31^8 per stored code). */
const CODE_ATTEMPTS = 5

/** What a recipient fixes on a new code; the HTTP contract validates the bounds. */
export interface CreatePaymentCode {
  /** The amount a transfer with this code must send, in USD minor units; any amount when absent. */
  readonly amount?: number | undefined
  readonly memo?: string | undefined
  /** Seconds until the code expires (`PAYMENT_CODE_TTL_SECONDS`, default 7 days). */
  readonly expiresInSeconds?: number | undefined
}

/** Payment codes: created by a recipient, resolved by anyone of the same mode, used by one transfer at most. */
export class PaymentCodes extends Context.Service<
  PaymentCodes,
  {
    /** A new active code for the team in `mode`, paying to the team's address in that mode. */
    readonly create: (
      recipient: { readonly teamId: TeamId; readonly mode: Mode },
      input: CreatePaymentCode
    ) => Effect.Effect<PaymentCode, ReceiveHandleMissing | PersistenceUnavailable>
    /** The code as typed (any case) seen from `mode`: not found when unknown, malformed or of the other mode. */
    readonly resolve: (
      mode: Mode,
      code: string
    ) => Effect.Effect<PaymentCode, PaymentCodeNotFound | PersistenceUnavailable>
    /**
     * For a transfer about to use the code, inside its transaction: the code, locked until the transaction ends, if it
     * is active now; refused when used or expired. Follow with `markUsed` in the same transaction.
     */
    readonly lockForUse: (
      mode: Mode,
      code: string
    ) => Effect.Effect<PaymentCode, PaymentCodeNotFound | PaymentCodeUnusable | PersistenceUnavailable>
    /** Records the code's one use by `transferId` now; refused (`used`) when it was used already. */
    readonly markUsed: (
      code: PaymentCode,
      transferId: string
    ) => Effect.Effect<PaymentCode, PaymentCodeUnusable | PersistenceUnavailable>
  }
>()("@svc/domain/PaymentCodes") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* PaymentCodesRepo
    const handles = yield* ReceiveHandlesRepo

    const create = Effect.fn("PaymentCodes.create")(function* (
      recipient: { readonly teamId: TeamId; readonly mode: Mode },
      input: CreatePaymentCode
    ) {
      const handle = yield* handles.findByTeam(recipient.teamId)
      if (Option.isNone(handle)) return yield* new ReceiveHandleMissing({ teamId: recipient.teamId })
      const now = yield* Clock.currentTimeMillis
      const ttlSeconds = input.expiresInSeconds ?? PAYMENT_CODE_TTL_SECONDS.default
      for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
        const code: PaymentCode = {
          code: `PC-${(yield* randomUnambiguous(PAYMENT_CODE_LENGTH)).toUpperCase()}`,
          teamId: recipient.teamId,
          teamName: handle.value.teamName,
          handle: handle.value.handle,
          mode: recipient.mode,
          amount: input.amount ?? null,
          currency: "USD",
          memo: input.memo ?? null,
          expiresAt: isoOfMillis(now + ttlSeconds * 1000),
          usedAt: null,
          usedByTransferId: null,
          createdAt: isoOfMillis(now)
        }
        if (yield* repo.insert(code)) return code
      }
      return yield* Effect.die(new Error(`no free payment code after ${CODE_ATTEMPTS} attempts`))
    })

    const inMode =
      (mode: Mode, text: string) =>
      (found: Option.Option<PaymentCode>): Effect.Effect<PaymentCode, PaymentCodeNotFound> =>
        Option.isSome(found) && found.value.mode === mode
          ? Effect.succeed(found.value)
          : Effect.fail(new PaymentCodeNotFound({ code: text }))

    const resolve = Effect.fn("PaymentCodes.resolve")(function* (mode: Mode, text: string) {
      const code = normalizePaymentCode(text)
      if (code === undefined) return yield* new PaymentCodeNotFound({ code: text })
      return yield* repo.find(code).pipe(Effect.flatMap(inMode(mode, text)))
    })

    const lockForUse = Effect.fn("PaymentCodes.lockForUse")(function* (mode: Mode, text: string) {
      const normalized = normalizePaymentCode(text)
      if (normalized === undefined) return yield* new PaymentCodeNotFound({ code: text })
      const code = yield* repo.findForUse(normalized).pipe(Effect.flatMap(inMode(mode, text)))
      const status = paymentCodeStatus(code, yield* Clock.currentTimeMillis)
      if (status !== "active") return yield* new PaymentCodeUnusable({ code: code.code, status })
      return code
    })

    const markUsed = Effect.fn("PaymentCodes.markUsed")(function* (code: PaymentCode, transferId: string) {
      const usedAt = isoOfMillis(yield* Clock.currentTimeMillis)
      const marked = yield* repo.markUsed(code.code, { transferId, usedAt })
      if (Option.isNone(marked)) return yield* new PaymentCodeUnusable({ code: code.code, status: "used" })
      return marked.value
    })

    return PaymentCodes.of({ create, resolve, lockForUse, markUsed })
  })
  static readonly layer = Layer.effect(PaymentCodes, PaymentCodes.make)
}
