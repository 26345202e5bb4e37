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
  paymentCodeRefusal
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

/**
 * Payment codes: created by a recipient, resolved by anyone of the same mode, held by the one open transfer made with
 * them and used by it when it is accepted, freed when it ends otherwise.
 */
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
     * For a new open transfer made with the code (resolved before), inside its transaction: the code held for it until
     * it ends; refused when the code is used, held by another open transfer, or expired.
     */
    readonly reserve: (
      code: PaymentCode,
      transferId: string
    ) => Effect.Effect<PaymentCode, PaymentCodeUnusable | PersistenceUnavailable>
    /** For a transfer made with the code that ends unpaid, inside its transaction: the code freed if it held it. */
    readonly release: (code: string, transferId: string) => Effect.Effect<void, PersistenceUnavailable>
    /**
     * For a transfer made with the code that is accepted, inside its transaction: the code's one use recorded now;
     * refused when it was used, another open transfer holds it, or (held by none, as codes of transfers made before
     * codes were held may be) it expired.
     */
    readonly use: (
      code: string,
      transferId: string
    ) => Effect.Effect<PaymentCode, PaymentCodeNotFound | PaymentCodeUnusable | PersistenceUnavailable>
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
          reservedByTransferId: null,
          createdAt: isoOfMillis(now)
        }
        if (yield* repo.insert(code)) return code
      }
      return yield* Effect.die(new Error(`no free payment code after ${CODE_ATTEMPTS} attempts`))
    })

    const resolve = Effect.fn("PaymentCodes.resolve")(function* (mode: Mode, text: string) {
      const code = normalizePaymentCode(text)
      const found = code === undefined ? Option.none() : yield* repo.find(code)
      if (Option.isNone(found) || found.value.mode !== mode) return yield* new PaymentCodeNotFound({ code: text })
      return found.value
    })

    /** The code locked for the transfer `transferId` to take it now, or why it may not. */
    const lockedFor = (text: string, transferId: string) =>
      Effect.gen(function* () {
        const found = yield* repo.findForUse(text)
        if (Option.isNone(found)) return yield* new PaymentCodeNotFound({ code: text })
        const refusal = paymentCodeRefusal(found.value, transferId, yield* Clock.currentTimeMillis)
        if (refusal !== undefined) return yield* new PaymentCodeUnusable({ code: text, status: refusal })
        return found.value
      })

    const reserve = Effect.fn("PaymentCodes.reserve")(function* (code: PaymentCode, transferId: string) {
      yield* lockedFor(code.code, transferId).pipe(
        // The code was resolved before, and codes are never deleted.
        Effect.catchTag("PaymentCodeNotFound", Effect.die)
      )
      const reserved = yield* repo.reserve(code.code, transferId)
      // Locked above and found free: nothing took it meanwhile.
      if (Option.isNone(reserved)) return yield* Effect.die(new Error(`locked code ${code.code} was taken`))
      return reserved.value
    })

    const use = Effect.fn("PaymentCodes.use")(function* (text: string, transferId: string) {
      yield* lockedFor(text, transferId)
      const usedAt = isoOfMillis(yield* Clock.currentTimeMillis)
      const used = yield* repo.markUsed(text, { transferId, usedAt })
      // Locked above and found free or held by this transfer: nothing took it meanwhile.
      if (Option.isNone(used)) return yield* Effect.die(new Error(`locked code ${text} was taken`))
      return used.value
    })

    return PaymentCodes.of({
      create,
      resolve,
      reserve,
      release: Effect.fn("PaymentCodes.release")((text: string, transferId: string) => repo.release(text, transferId)),
      use
    })
  })
  static readonly layer = Layer.effect(PaymentCodes, PaymentCodes.make)
}
