import { assert, layer } from "@effect/vitest"
import { ExactEvmScheme } from "@x402/evm/exact/client"
import { wrapFetchWithPaymentFromConfig } from "@x402/fetch"
import { type Context, Effect } from "effect"
import { type Address, type Hex, isHex } from "viem"
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts"
import { decodeX402Header, encodeX402Header, RESOURCE_BODY, TOKEN_DOMAIN, X402Rig } from "../support/X402Rig.ts"
import { EIP3009_TYPES } from "./X402Setup.ts"

type Rig = Context.Service.Shape<typeof X402Rig>

interface Requirements {
  readonly scheme: string
  readonly network: string
  readonly amount: string
  readonly asset: Address
  readonly payTo: Address
  readonly maxTimeoutSeconds: number
  readonly extra: { readonly name: string; readonly version: string }
}

interface PaymentRequired {
  readonly x402Version: number
  readonly error?: string
  readonly resource: { readonly url: string; readonly description: string; readonly mimeType: string }
  readonly accepts: ReadonlyArray<Requirements>
}

interface PaymentPayload {
  readonly x402Version: number
  readonly resource: PaymentRequired["resource"]
  readonly accepted: Requirements
  readonly payload: {
    readonly authorization: {
      readonly from: Address
      readonly to: Address
      readonly value: string
      readonly validAfter: string
      readonly validBefore: string
      readonly nonce: Hex
    }
    readonly signature: Hex
  }
}

const get = (url: string, headers: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { headers })
    return { status: response.status, headers: response.headers, body: await response.text() }
  })

const paymentRequiredOf = (headers: Headers) =>
  decodeX402Header(headers.get("payment-required") ?? "") as PaymentRequired

/** A fresh payer holding `tokens` base units (and ETH it never needs: the facilitator pays the gas). */
const fundedPayer = (rig: Rig, tokens: bigint) =>
  Effect.gen(function* () {
    const account = privateKeyToAccount(generatePrivateKey())
    yield* rig.fund(account.address, tokens)
    return account
  })

/**
 * `@x402/fetch` paying with `account`; it records the headers of every request it sends. The official client refuses
 * assets it does not know (its spend controls) unless they are allowed, as the rig's token is here, up to the price.
 */
const officialClient = (rig: Rig, account: PrivateKeyAccount) => {
  const sent: Array<Headers> = []
  const recording: typeof fetch = (input, init) => {
    const request = new Request(input, init)
    sent.push(request.headers)
    return fetch(request)
  }
  const pay = wrapFetchWithPaymentFromConfig(recording, {
    schemes: [{ network: rig.network, client: new ExactEvmScheme(account) }],
    spendControls: {
      allowedAssets: [{ network: rig.network, asset: rig.token, maxAmountPerPayment: rig.priceMinor.toString() }]
    }
  })
  return {
    sent,
    get: (url: string) =>
      Effect.promise(async () => {
        const response = await pay(url)
        return { status: response.status, headers: response.headers, body: await response.text() }
      })
  }
}

/**
 * A `PAYMENT-SIGNATURE` built by hand with viem alone, as a payer other than `@x402/fetch` builds one: `account` signs
 * a transfer of `value` (the price unless told) from `from` (its own address unless told).
 */
const handSignedPayment = (
  account: PrivateKeyAccount,
  required: PaymentRequired,
  { value = BigInt(required.accepts[0]!.amount), from = account.address }: { value?: bigint; from?: Address } = {}
) =>
  Effect.promise(async () => {
    const accepted = required.accepts[0]!
    const authorization = {
      from,
      to: accepted.payTo,
      value: value.toString(),
      validAfter: "0",
      validBefore: String(Math.floor(Date.now() / 1000) + accepted.maxTimeoutSeconds),
      nonce: generatePrivateKey()
    }
    const signature = await account.signTypedData({
      domain: {
        name: accepted.extra.name,
        version: accepted.extra.version,
        chainId: Number(accepted.network.slice("eip155:".length)),
        verifyingContract: accepted.asset
      },
      types: EIP3009_TYPES,
      primaryType: "TransferWithAuthorization",
      message: {
        ...authorization,
        value,
        validAfter: 0n,
        validBefore: BigInt(authorization.validBefore)
      }
    })
    const payment: PaymentPayload = {
      x402Version: 2,
      resource: required.resource,
      accepted,
      payload: { authorization, signature }
    }
    return encodeX402Header(payment)
  })

layer(X402Rig.layer(), { timeout: "60 seconds" })("x402 rig: the official x402 packages as payee", (it) => {
  it.effect("an unpaid request is answered 402 with the requirements, base64 JSON in the PAYMENT-REQUIRED header", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const unpaid = yield* get(rig.resourceUrl)
      assert.strictEqual(unpaid.status, 402)
      assert.strictEqual(unpaid.body, "{}")
      assert.strictEqual(unpaid.headers.get("content-type"), "application/json")
      assert.strictEqual(unpaid.headers.get("cache-control"), "no-store")
      assert.deepStrictEqual(paymentRequiredOf(unpaid.headers), {
        x402Version: 2,
        error: "Payment required",
        resource: {
          url: rig.resourceUrl,
          description: "A report sold for the token over x402",
          mimeType: "application/json"
        },
        accepts: [
          {
            scheme: "exact",
            network: "eip155:31337",
            amount: rig.priceMinor.toString(),
            asset: rig.token,
            payTo: rig.payTo,
            maxTimeoutSeconds: 60,
            extra: { ...TOKEN_DOMAIN }
          }
        ]
      })
    })
  )

  it.effect("the official client pays: a 402, then the paid retry is answered 200 and moves exactly the price", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const payer = yield* fundedPayer(rig, 1_000_000n)
      const payeeBefore = yield* rig.balanceOf(rig.payTo)
      const client = officialClient(rig, payer)

      const paid = yield* client.get(rig.resourceUrl)

      assert.strictEqual(paid.status, 200)
      assert.deepStrictEqual(JSON.parse(paid.body), RESOURCE_BODY)
      assert.strictEqual(client.sent.length, 2)
      assert.isNull(client.sent[0]!.get("payment-signature"))
      const payment = decodeX402Header(client.sent[1]!.get("payment-signature") ?? "") as PaymentPayload
      const required = paymentRequiredOf((yield* get(rig.resourceUrl)).headers)
      assert.strictEqual(payment.x402Version, 2)
      assert.deepStrictEqual(payment.resource, required.resource)
      assert.deepStrictEqual(payment.accepted, required.accepts[0])
      const { authorization, signature } = payment.payload
      assert.deepStrictEqual(
        { from: authorization.from, to: authorization.to, value: authorization.value },
        { from: payer.address, to: rig.payTo, value: rig.priceMinor.toString() }
      )
      assert.isTrue(isHex(authorization.nonce) && authorization.nonce.length === 66)
      assert.isTrue(isHex(signature) && signature.length === 132)
      assert.isTrue(yield* rig.authorizationUsed(payer.address, authorization.nonce))

      const receipt = decodeX402Header(paid.headers.get("payment-response") ?? "") as Record<string, unknown>
      assert.deepStrictEqual(Object.keys(receipt).sort(), ["network", "payer", "success", "transaction"])
      assert.deepStrictEqual(
        { success: receipt.success, payer: receipt.payer, network: receipt.network },
        { success: true, payer: payer.address, network: rig.network }
      )
      assert.isTrue(isHex(receipt.transaction) && receipt.transaction.length === 66)

      assert.strictEqual(yield* rig.balanceOf(payer.address), 1_000_000n - rig.priceMinor)
      assert.strictEqual(yield* rig.balanceOf(rig.payTo), payeeBefore + rig.priceMinor)
    })
  )

  it.effect("a second, independent payment by the same payer settles too, with its own authorization", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const payer = yield* fundedPayer(rig, 1_000_000n)
      const payeeBefore = yield* rig.balanceOf(rig.payTo)
      const client = officialClient(rig, payer)

      const first = yield* client.get(rig.resourceUrl)
      const second = yield* client.get(rig.resourceUrl)

      assert.deepStrictEqual([first.status, second.status], [200, 200])
      assert.strictEqual(client.sent.length, 4)
      const [firstNonce, secondNonce] = [client.sent[1]!, client.sent[3]!].map(
        (headers) =>
          (decodeX402Header(headers.get("payment-signature") ?? "") as PaymentPayload).payload.authorization.nonce
      )
      assert.notStrictEqual(firstNonce, secondNonce)
      assert.strictEqual(yield* rig.balanceOf(payer.address), 1_000_000n - 2n * rig.priceMinor)
      assert.strictEqual(yield* rig.balanceOf(rig.payTo), payeeBefore + 2n * rig.priceMinor)
    })
  )

  it.effect("a replayed PAYMENT-SIGNATURE is refused with a 402 naming the used nonce, and moves nothing", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const payer = yield* fundedPayer(rig, 1_000_000n)
      const client = officialClient(rig, payer)
      assert.strictEqual((yield* client.get(rig.resourceUrl)).status, 200)
      const header = client.sent[1]!.get("payment-signature") ?? ""
      const [payerBefore, payeeBefore] = [yield* rig.balanceOf(payer.address), yield* rig.balanceOf(rig.payTo)]

      const replayed = yield* get(rig.resourceUrl, { "PAYMENT-SIGNATURE": header })

      assert.strictEqual(replayed.status, 402)
      assert.strictEqual(replayed.body, "{}")
      assert.isNull(replayed.headers.get("payment-response"))
      assert.strictEqual(paymentRequiredOf(replayed.headers).error, "invalid_exact_evm_nonce_already_used")
      assert.strictEqual(yield* rig.balanceOf(payer.address), payerBefore)
      assert.strictEqual(yield* rig.balanceOf(rig.payTo), payeeBefore)
    })
  )

  it.effect("a PAYMENT-SIGNATURE signed by hand with viem is paid like the official client's", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const payer = yield* fundedPayer(rig, 1_000_000n)
      const payeeBefore = yield* rig.balanceOf(rig.payTo)
      const required = paymentRequiredOf((yield* get(rig.resourceUrl)).headers)

      const paid = yield* get(rig.resourceUrl, { "PAYMENT-SIGNATURE": yield* handSignedPayment(payer, required) })

      assert.strictEqual(paid.status, 200)
      assert.deepStrictEqual(JSON.parse(paid.body), RESOURCE_BODY)
      assert.strictEqual(
        (decodeX402Header(paid.headers.get("payment-response") ?? "") as { payer: string }).payer,
        payer.address
      )
      assert.strictEqual(yield* rig.balanceOf(rig.payTo), payeeBefore + rig.priceMinor)
    })
  )

  it.effect(
    "a payment for less than the price, by a payer without the tokens, or signed by another key is refused",
    () =>
      Effect.gen(function* () {
        const rig = yield* X402Rig
        const required = paymentRequiredOf((yield* get(rig.resourceUrl)).headers)
        const payer = yield* fundedPayer(rig, 1_000_000n)
        const broke = yield* fundedPayer(rig, rig.priceMinor - 1n)
        const forger = privateKeyToAccount(generatePrivateKey())
        const payeeBefore = yield* rig.balanceOf(rig.payTo)

        const refusals = yield* Effect.forEach(
          [
            handSignedPayment(payer, required, { value: rig.priceMinor - 1n }),
            handSignedPayment(broke, required),
            handSignedPayment(forger, required, { from: payer.address })
          ],
          (payment) =>
            Effect.gen(function* () {
              const refused = yield* get(rig.resourceUrl, { "PAYMENT-SIGNATURE": yield* payment })
              return { status: refused.status, error: paymentRequiredOf(refused.headers).error }
            })
        )

        assert.deepStrictEqual(refusals, [
          { status: 402, error: "invalid_exact_evm_payload_authorization_value_mismatch" },
          { status: 402, error: "invalid_exact_evm_insufficient_balance" },
          { status: 402, error: "invalid_exact_evm_signature" }
        ])
        assert.strictEqual(yield* rig.balanceOf(payer.address), 1_000_000n)
        assert.strictEqual(yield* rig.balanceOf(rig.payTo), payeeBefore)
      })
  )
})
